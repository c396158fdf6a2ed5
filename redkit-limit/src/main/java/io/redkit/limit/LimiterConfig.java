package io.redkit.limit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.redkit.Validate;

/**
 * One limiter: its name (part of every key, and the {@code limiter} tag of its meters), the limits it checks on
 * a subject, all in one script and one round trip, and what it decides when Redis cannot. Immutable; built by
 * {@link #builder(String)}, which refuses a bad value at once and names it.
 *
 * <p>Several limits on one subject ({@code 10/s} and {@code 1000/h}) are checked atomically: a refusal by one
 * takes nothing from the others. They share one algorithm, because each algorithm is one script (mixing would
 * take a script that knows them all), and have distinct periods, because a limit's state is kept under its
 * algorithm and period (two limits of one period would be one of them, twice).
 */
public final class LimiterConfig {

    /** The most limits one limiter checks; each is a key and a few arguments of the same script call. */
    public static final int MAX_LIMITS = 8;
    /** The longest limiter name; it is part of every key of the limiter. */
    public static final int MAX_NAME_LENGTH = 64;

    private final String name;
    private final List<Limit> limits;
    private final UnavailablePolicy whenUnavailable;
    private final long capacity;

    private LimiterConfig(Builder b) {
        this.name = b.name;
        this.limits = List.copyOf(b.limits);
        this.whenUnavailable = b.whenUnavailable;
        this.capacity = limits.stream().mapToLong(Limit::capacity).min().orElseThrow();
    }

    /** A builder for the limiter called {@code name}: 1-64 of {@code [A-Za-z0-9_.-]}. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** The limiter {@code name} checking {@code limits}, deciding {@code whenUnavailable} when Redis cannot. */
    public static LimiterConfig of(String name, UnavailablePolicy whenUnavailable, Limit... limits) {
        return builder(name).whenUnavailable(whenUnavailable).limits(limits).build();
    }

    /** The limiter's name. */
    public String name() { return name; }

    /** The limits checked on every call, in the order given. */
    public List<Limit> limits() { return limits; }

    /** What the limiter decides when Redis cannot. */
    public UnavailablePolicy whenUnavailable() { return whenUnavailable; }

    /** The algorithm every limit of this limiter uses. */
    public Algorithm algorithm() { return limits.get(0).algorithm(); }

    /** The most permits one call may ask for: the smallest {@link Limit#capacity()}. */
    public long capacity() { return capacity; }

    @Override
    public boolean equals(Object o) {
        return o instanceof LimiterConfig c && name.equals(c.name) && limits.equals(c.limits)
                && whenUnavailable == c.whenUnavailable;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, limits, whenUnavailable);
    }

    @Override
    public String toString() {
        return "LimiterConfig[" + name + ", " + limits + ", " + whenUnavailable + "]";
    }

    /** Builds a {@link LimiterConfig}; each setter rejects a bad value at once, naming it. */
    public static final class Builder {
        private final String name;
        private final List<Limit> limits = new ArrayList<>();
        private UnavailablePolicy whenUnavailable;

        private Builder(String name) {
            this.name = Validate.name("limiter name", name, MAX_NAME_LENGTH);
        }

        /** Adds a limit: the same algorithm as the others, another period, at most {@link #MAX_LIMITS} in all. */
        public Builder limit(Limit limit) {
            Objects.requireNonNull(limit, "limit");
            if (limits.size() == MAX_LIMITS) {
                throw new IllegalArgumentException("limiter '" + name + "' may check at most " + MAX_LIMITS
                        + " limits, was given one more: " + limit);
            }
            for (Limit other : limits) {
                if (other.algorithm() != limit.algorithm()) {
                    throw new IllegalArgumentException("the limits of limiter '" + name + "' must share one algorithm"
                            + " (one script decides them all), was " + other + " and " + limit
                            + "; use two limiters for two algorithms");
                }
                if (other.period().equals(limit.period())) {
                    throw new IllegalArgumentException("the limits of limiter '" + name + "' must have distinct"
                            + " periods (their state is kept by period), was " + other + " and " + limit);
                }
            }
            limits.add(limit);
            return this;
        }

        /** Adds each of {@code values} as by {@link #limit}. */
        public Builder limits(Limit... values) {
            for (Limit l : Objects.requireNonNull(values, "limits")) {
                limit(l);
            }
            return this;
        }

        /** What the limiter decides when Redis cannot; required, there is no default. */
        public Builder whenUnavailable(UnavailablePolicy value) {
            this.whenUnavailable = Objects.requireNonNull(value, "whenUnavailable");
            return this;
        }

        /** {@code whenUnavailable(FAIL_OPEN)}. */
        public Builder failOpen() {
            return whenUnavailable(UnavailablePolicy.FAIL_OPEN);
        }

        /** {@code whenUnavailable(FAIL_CLOSED)}. */
        public Builder failClosed() {
            return whenUnavailable(UnavailablePolicy.FAIL_CLOSED);
        }

        /** Checks that a limit and a policy were given and builds the configuration. */
        public LimiterConfig build() {
            if (limits.isEmpty()) {
                throw new IllegalArgumentException("limiter '" + name + "' needs at least one limit");
            }
            if (whenUnavailable == null) {
                throw new IllegalArgumentException("limiter '" + name + "' must say what it decides when Redis is"
                        + " unavailable: failOpen() (allow, counted in redkit.limit.unavailable) or failClosed()"
                        + " (refuse); there is no default");
            }
            return new LimiterConfig(this);
        }
    }
}
