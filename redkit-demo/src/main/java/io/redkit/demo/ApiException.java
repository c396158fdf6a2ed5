package io.redkit.demo;

/** A request the service refuses, answered as problem details ({@link ApiErrors}) of its {@link ProblemType}. */
public final class ApiException extends RuntimeException {

    private final ProblemType type;
    private final String field;

    /** {@code detail} is shown to the client: say what to change, never what the server holds. */
    public ApiException(ProblemType type, String detail) {
        this(type, detail, null);
    }

    /** A problem with one field or parameter, named in the answer's {@code field} member. */
    public ApiException(ProblemType type, String detail, String field) {
        super(detail, null, false, false);
        this.type = type;
        this.field = field;
    }

    public ProblemType type() {
        return type;
    }

    /** The field or parameter at fault, or null. */
    public String field() {
        return field;
    }

    static ApiException invalid(String field, String detail) {
        return new ApiException(ProblemType.INVALID_REQUEST, detail, field);
    }
}
