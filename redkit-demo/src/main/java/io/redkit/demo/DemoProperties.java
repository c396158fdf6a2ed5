package io.redkit.demo;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The service's own settings, {@code demo.*}; redkit's are {@code redkit.*} (the starter's).
 *
 * @param instanceId names this instance in the report runs, the fulfilments and the ops page (default: host and pid)
 * @param cache the product cache
 * @param report the report job
 * @param outbox the relay that publishes the events of orders whose commit could not reach the stream
 * @param cookie the session cookie
 * @param ops who may see the health details
 */
@ConfigurationProperties("demo")
public record DemoProperties(String instanceId, @DefaultValue Cache cache, @DefaultValue Report report,
        @DefaultValue Outbox outbox, @DefaultValue Cookie cookie, @DefaultValue Ops ops) {

    /** A product entry lives {@code ttl} (with redkit's jitter), a "not found" {@code negativeTtl}. */
    public record Cache(@DefaultValue("10m") Duration ttl, @DefaultValue("30s") Duration negativeTtl) {
    }

    /** One report per {@code period}; each instance looks every {@code period / 5} whether this one is due. */
    public record Report(@DefaultValue("true") boolean enabled, @DefaultValue("1m") Duration period) {
    }

    /** The relay looks every {@code interval} for orders committed without their event. */
    public record Outbox(@DefaultValue("2s") Duration interval) {
    }

    /**
     * {@code secure=true} (the default) sends the {@code __Host-sid} cookie with Secure; browsers keep it over
     * https and on http://localhost. {@code false} is for plain-HTTP hosts that are not localhost, and names the
     * cookie {@code sid}, since the {@code __Host-} prefix requires Secure.
     */
    public record Cookie(@DefaultValue("true") boolean secure) {
    }

    /**
     * {@code token} (environment {@code DEMO_OPS_TOKEN}): a caller that sends {@code Authorization: Bearer <token>}
     * sees the health details (which components, their state, disk paths); anyone else sees only the status. Unset
     * (the default), nobody sees the details over HTTP. At least 32 characters.
     */
    public record Ops(String token) {
        public Ops {
            if (token != null && !token.isEmpty() && token.length() < 32) {
                throw new IllegalArgumentException("demo.ops.token must have at least 32 characters");
            }
        }
    }
}
