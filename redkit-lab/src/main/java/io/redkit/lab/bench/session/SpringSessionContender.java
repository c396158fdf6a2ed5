package io.redkit.lab.bench.session;

import java.time.Duration;
import java.time.Instant;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.session.FlushMode;
import org.springframework.session.SaveMode;
import org.springframework.session.Session;
import org.springframework.session.SessionRepository;
import org.springframework.session.data.redis.RedisSessionRepository;

import io.redkit.lab.bench.BenchEnv;
import io.redkit.lab.bench.SpringFactories;

/**
 * Spring Session's {@code RedisSessionRepository} as Spring Boot configures it for
 * {@code spring.session.redis.repository-type=default}: a {@code RedisTemplate<String, Object>} with string keys and
 * hash keys and JDK serialization for values (what {@code RedisHttpSessionConfiguration.createRedisTemplate} builds
 * when no serializer bean is given), namespace {@code spring:session}, 30-minute timeout, flush on save, save on
 * set-attribute, over a {@code LettuceConnectionFactory} with Boot's defaults (one shared native connection). A
 * request is what {@code SessionRepositoryFilter} does with it: {@code findById} (HGETALL), the session's
 * {@code setLastAccessedTime(now)}, the application's {@code getAttribute}, and at commit {@code save}
 * (EXISTS, then HMSET of the changed lastAccessedTime and PEXPIREAT): four round trips.
 */
final class SpringSessionContender extends SessionContender {

    private static final String ATTRIBUTE = "visitor";

    private LettuceConnectionFactory factory;
    /* As SessionRepositoryFilter holds it: RedisSessionRepository's session class is not public. */
    private SessionRepository<? extends Session> repository;
    private final String[] ids = new String[Visitor.SESSIONS];

    SpringSessionContender() {
        super("spring-session");
    }

    @Override
    public void setup(BenchEnv env) {
        factory = SpringFactories.started(env);
        RedisTemplate<String, Object> template = new RedisTemplate<>();
        template.setKeySerializer(RedisSerializer.string());
        template.setHashKeySerializer(RedisSerializer.string());
        template.setConnectionFactory(factory);
        template.afterPropertiesSet();
        RedisSessionRepository redis = new RedisSessionRepository(template);
        redis.setDefaultMaxInactiveInterval(Duration.ofMinutes(30));
        redis.setFlushMode(FlushMode.ON_SAVE);
        redis.setSaveMode(SaveMode.ON_SET_ATTRIBUTE);
        repository = redis;
        for (int i = 0; i < Visitor.SESSIONS; i++) {
            ids[i] = create(repository, Visitor.of(i));
        }
    }

    private static <S extends Session> String create(SessionRepository<S> repository, Visitor visitor) {
        S session = repository.createSession();
        session.setAttribute(ATTRIBUTE, visitor);
        repository.save(session);
        return session.getId();
    }

    @Override
    Visitor loadAndTouch(int i) {
        return loadAndTouch(repository, ids[i]);
    }

    /** SessionRepositoryFilter's request: find the session, touch it, the application reads it, commit saves it. */
    private static <S extends Session> Visitor loadAndTouch(SessionRepository<S> repository, String id) {
        S session = repository.findById(id);
        if (session == null) {
            return null;
        }
        session.setLastAccessedTime(Instant.now());
        Visitor v = session.getAttribute(ATTRIBUTE);
        repository.save(session);
        return v;
    }

    @Override
    public void close() {
        if (repository != null) {
            for (String id : ids) {
                if (id != null) {
                    repository.deleteById(id);
                }
            }
        }
        if (factory != null) {
            factory.destroy();
        }
    }
}
