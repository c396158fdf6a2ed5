package io.redkit.spring.internal;

/** The one class a cache's values have: checked on every write, and the only class its entries decode to. */
record ValueType(String cache, Class<?> type) {

    /** Refuses what would decode to something else than what was written. */
    ValueType {
        if (type == null) {
            throw new IllegalArgumentException("redkit.cache.caches." + cache + ".value-type is required: the class"
                    + " of the values, which entries decode to and nothing else");
        }
        if (type.isPrimitive()) {
            throw new IllegalArgumentException("redkit.cache.caches." + cache + ".value-type " + type
                    + " is primitive: use its boxed class");
        }
        if (type == Object.class) {
            throw new IllegalArgumentException("redkit.cache.caches." + cache + ".value-type must be the values'"
                    + " own class, not Object: entries would decode to maps instead of the method's type");
        }
    }

    /** {@code value} itself, when it is null or of this type. */
    Object check(Object value) {
        if (value != null && !type.isInstance(value)) {
            throw new IllegalArgumentException("cache '" + cache + "' holds " + type.getName() + " (its value-type),"
                    + " was given " + value.getClass().getName());
        }
        return value;
    }
}
