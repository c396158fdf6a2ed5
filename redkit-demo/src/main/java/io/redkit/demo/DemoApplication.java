package io.redkit.demo;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;

/**
 * The reference service. {@code java -jar redkit-demo.jar}: with {@code REDIS_URL} and {@code DATABASE_URL} it
 * uses those servers; without, it starts its own (see {@link Backends}). It prints its URL once it listens.
 */
@SpringBootApplication
public class DemoApplication {

    public static void main(String[] args) {
        try {
            ConfigurableApplicationContext context = run(System.getenv(), args);
            if (context instanceof WebServerApplicationContext web) {
                System.out.println("redkit-demo is up: http://localhost:" + web.getWebServer().getPort()
                        + "/ops.html (ops page), /products/1, /actuator/health");
            }
        } catch (Backends.StartupException e) {
            System.err.println("redkit-demo: cannot start: " + e.getMessage());
            System.exit(1);
        }
    }

    /**
     * Starts the service on the servers {@code env} names (REDIS_URL, DATABASE_URL) or on servers of its own, which
     * stop when the returned context closes.
     *
     * @throws Backends.StartupException when a given server is unreachable or refuses the credentials
     */
    public static ConfigurableApplicationContext run(Map<String, String> env, String... args) {
        Backends backends = Backends.resolve(env);
        try {
            SpringApplication app = new SpringApplication(DemoApplication.class);
            app.setDefaultProperties(backends.properties());
            app.addListeners(event -> {
                if (event instanceof ContextClosedEvent) {
                    backends.close();
                }
            });
            return app.run(args);
        } catch (RuntimeException e) {
            backends.close();
            throw e;
        }
    }
}
