package io.redkit.spring.internal;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.util.ClassUtils;

import io.redkit.json.Json;

/**
 * The JSON behind the starter's caches, sessions and queues: the application's own Jackson 3 {@code JsonMapper}
 * bean when it has one, else its Jackson 2 {@code ObjectMapper} bean (a JSON one), else {@link Json#defaults()}; so
 * the modules and settings the application configured ({@code spring.jackson.*}, its modules) apply to what redkit
 * writes. Each library's types are touched only in a nested class loaded once that library is known to be there.
 */
public final class ApplicationJson {

    private ApplicationJson() {
    }

    /** The JSON for the beans of {@code beans}. */
    public static Json of(BeanFactory beans) {
        if (present("tools.jackson.databind.json.JsonMapper")) {
            Json json = Jackson3.find(beans);
            if (json != null) {
                return json;
            }
        }
        if (present("com.fasterxml.jackson.databind.ObjectMapper")) {
            Json json = Jackson2.find(beans);
            if (json != null) {
                return json;
            }
        }
        return Json.defaults();
    }

    private static boolean present(String className) {
        return ClassUtils.isPresent(className, ApplicationJson.class.getClassLoader());
    }

    private static final class Jackson3 {

        static Json find(BeanFactory beans) {
            var mapper = beans.getBeanProvider(tools.jackson.databind.json.JsonMapper.class).getIfUnique();
            return mapper == null ? null : io.redkit.json.Jackson3Json.of(mapper);
        }
    }

    private static final class Jackson2 {

        /** The application's one ObjectMapper (or its primary), if it writes JSON: an XmlMapper would not do. */
        static Json find(BeanFactory beans) {
            var mapper = beans.getBeanProvider(com.fasterxml.jackson.databind.ObjectMapper.class).getIfUnique();
            return mapper == null || !"JSON".equals(mapper.getFactory().getFormatName()) ? null
                    : io.redkit.json.Jackson2Json.of(mapper);
        }
    }
}
