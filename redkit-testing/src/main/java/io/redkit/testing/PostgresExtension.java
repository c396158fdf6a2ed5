package io.redkit.testing;

import io.redkit.testing.internal.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JUnit 5 extension giving a test class a fresh schema of its own in a real PostgreSQL: created before its
 * first test, dropped with everything in it after its last. From a static {@code @RegisterExtension} field;
 * an instance field gives each test method its own schema.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final PostgresExtension pg = PostgresExtension.create();
 * }</pre>
 *
 * <p>The server is the one this JVM shares ({@link PostgresServer#shared()}), started on first use from the
 * binaries shipped in Maven, unless {@value #JDBC_URL_ENV} (or system property {@value #JDBC_URL_PROPERTY})
 * names another one, for example {@code jdbc:postgresql://ci-db/test?user=ci&password=...}, whose user may
 * create schemas.
 */
public final class PostgresExtension extends ScopedExtension<PostgresSchema> {

    /** Environment variable with the JDBC URL of an external PostgreSQL to use instead of starting one. */
    public static final String JDBC_URL_ENV = "REDKIT_TEST_JDBC_URL";
    /** System property with the JDBC URL of an external PostgreSQL; wins over {@value #JDBC_URL_ENV}. */
    public static final String JDBC_URL_PROPERTY = "redkit.test.jdbc.url";

    private static final Logger LOG = LoggerFactory.getLogger(PostgresExtension.class);
    // Room for the random suffix within PostgreSQL's 63-character identifiers.
    private static final int PREFIX_LENGTH = 40;

    private final Supplier<String> adminUrl;

    private PostgresExtension(Supplier<String> adminUrl) {
        this.adminUrl = adminUrl;
    }

    /** Returns an extension whose schemas live in the configured external server, or else in the shared one. */
    public static PostgresExtension create() {
        return new PostgresExtension(PostgresExtension::configuredUrl);
    }

    /** Returns an extension whose schemas live in the database at {@code adminUrl}. */
    static PostgresExtension using(String adminUrl) {
        return new PostgresExtension(() -> adminUrl);
    }

    private static String configuredUrl() {
        Optional<String> external = Optional.ofNullable(System.getProperty(JDBC_URL_PROPERTY))
                .or(() -> Optional.ofNullable(System.getenv(JDBC_URL_ENV))).filter(url -> !url.isBlank());
        return external.orElseGet(() -> PostgresServer.shared().jdbcUrl());
    }

    @Override
    PostgresSchema startResource(ExtensionContext context) {
        String url = adminUrl.get();
        String prefix = context.getRequiredTestClass().getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        String name = "t_" + prefix.substring(0, Math.min(prefix.length(), PREFIX_LENGTH)) + "_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        PostgresSchema schema = PostgresSchema.create(url, name);
        LOG.info("Schema {} for {} in {}", name, context.getDisplayName(), Jdbc.masked(url));
        return schema;
    }

    @Override
    void heal(PostgresSchema schema) {
        // Nothing to heal: a test's rows are its own business, the schema goes after the class.
    }

    /** Returns a data source whose connections use the schema as {@code search_path}. */
    public DataSource dataSource() {
        return resource().dataSource();
    }

    /** Returns the JDBC URL of the database, with the schema as {@code currentSchema}. */
    public String jdbcUrl() {
        return resource().jdbcUrl();
    }

    /** Returns the schema's name. */
    public String schema() {
        return resource().name();
    }

    /** Opens a connection in the schema; the caller closes it. */
    public Connection connection() throws SQLException {
        return dataSource().getConnection();
    }

    /** Runs one statement in the schema. */
    public void execute(String sql) throws SQLException {
        Jdbc.execute(dataSource(), sql);
    }

    /** Runs a query in the schema and returns the first column of its first row as a long. */
    public long queryLong(String sql) throws SQLException {
        return Jdbc.queryLong(dataSource(), sql);
    }
}
