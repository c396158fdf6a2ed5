package io.redkit.cache;

/**
 * How a cache entry is stored in Redis. The envelope is the default; plain JSON is for a key space shared with a
 * service in another language (see the README's "A cache shared with another language").
 */
public enum CacheFormat {

    /**
     * redkit's versioned envelope: an 18-byte header (schema version, logical expiry and recompute time for XFetch,
     * the "not found" flag, compression) before the codec's bytes. A hit is one GET.
     */
    ENVELOPE,

    /**
     * Exactly the codec's JSON (UTF-8, no header), so that any JSON library reads and writes the entries; the
     * "not found" marker is the JSON {@code null}. No schema version and no compression; XFetch reads the key's
     * {@code PTTL} in the same round trip as its GET (pipelined), unless early refresh is off.
     */
    PLAIN_JSON
}
