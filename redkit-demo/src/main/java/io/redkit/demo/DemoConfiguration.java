package io.redkit.demo;

import java.util.List;

import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import io.redkit.Redkit;
import io.redkit.cache.CacheAside;
import io.redkit.cache.CacheHealth;
import io.redkit.cache.RedisCache;
import io.redkit.demo.Accounts.Account;
import io.redkit.session.SessionCookie;
import io.redkit.session.SessionStore;
import io.redkit.spring.RedkitQueues;
import io.redkit.spring.RedkitSessions;
import io.redkit.spring.health.RedkitCacheHealthIndicator;
import io.redkit.stream.StreamQueue;

/** The service's redkit pieces, on the {@code Redkit}, locks, limiters, sessions and queues of the starter. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DemoProperties.class)
class DemoConfiguration implements WebMvcConfigurer {

    private final RateLimitInterceptor rateLimit;

    DemoConfiguration(RateLimitInterceptor rateLimit) {
        this.rateLimit = rateLimit;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(rateLimit).addPathPatterns("/api/**");
    }

    /** A browser that opens the service's root is sent to the ops page. */
    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/", "/ops.html");
    }

    /**
     * Tomcat's own error answers (a header over the size limit, a malformed request line) as problem details, like
     * every other error: {@link ProblemReportValve} in place of the HTML error page. Boot's customizer may already
     * have put a plain {@code ErrorReportValve} on the host; it is taken out so that ours is the one that answers.
     */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemReports() {
        return factory -> factory.addContextCustomizers(context -> {
            StandardHost host = (StandardHost) context.getParent();
            for (Valve valve : host.getPipeline().getValves()) {
                if (valve instanceof ErrorReportValve) {
                    host.getPipeline().removeValve(valve);
                }
            }
            host.setErrorReportValveClass(ProblemReportValve.class.getName());
        });
    }

    @Bean
    InstanceId instanceId(DemoProperties properties) {
        String id = properties.instanceId();
        if (id == null || id.isBlank()) {
            String host = System.getenv().getOrDefault("HOSTNAME", "localhost");
            id = host + "-" + ProcessHandle.current().pid();
        }
        return new InstanceId(id);
    }

    /**
     * The product cache: a cache-aside {@code CacheAside} rather than Spring's {@code @Cacheable}, because the
     * batch read needs {@code getAll} (one MGET, one query for the misses), which Spring's cache API has no word for.
     */
    @Bean(destroyMethod = "close")
    CacheAside<Long, Product> productCache(Redkit redkit, ProductRepository repository, DemoProperties properties) {
        return RedisCache.<Long, Product>builder(redkit).name("products").valueType(Product.class)
                .keyParts(id -> List.of(Long.toString(id)))
                .ttl(properties.cache().ttl()).negativeTtl(properties.cache().negativeTtl())
                .loader(repository::find).batchLoader(repository::findAll)
                .build();
    }

    /** DEGRADED while the product cache's breaker sends reads to PostgreSQL: slower, not down. */
    @Bean
    HealthIndicator productCacheHealthIndicator(CacheAside<Long, Product> productCache) {
        return () -> {
            CacheHealth h = productCache.health();
            return Health.status(h.isHealthy() ? Status.UP : RedkitCacheHealthIndicator.DEGRADED)
                    .withDetail("breaker", h.breaker().name()).build();
        };
    }

    @Bean
    SessionStore<Account> sessionStore(RedkitSessions sessions) {
        return sessions.store(Account.class);
    }

    @Bean
    SessionCookie sessionCookie(DemoProperties properties) {
        return properties.cookie().secure() ? SessionCookie.defaults()
                : SessionCookie.builder().name("sid").secure(false).build();
    }

    @Bean
    StreamQueue<OrderPlaced> orderQueue(RedkitQueues queues) {
        return queues.queue("orders", OrderPlaced.class);
    }
}
