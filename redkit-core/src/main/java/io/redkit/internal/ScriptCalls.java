package io.redkit.internal;

import static io.redkit.internal.CommandArguments.keyArray;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;
import io.redkit.RedisCommandException;
import io.redkit.RedisScript;
import io.redkit.ScriptResult;

/** Runs a {@link RedisScript} by its SHA, and by its source when the server answers NOSCRIPT. */
final class ScriptCalls {

    private static final String NOSCRIPT = "NOSCRIPT";

    private final CommandExecutor executor;

    ScriptCalls(CommandExecutor executor) {
        this.executor = executor;
    }

    <T> T eval(RedisScript<T> script, List<String> keys, byte[]... args) {
        String[] keyArray = keyArray(keys);
        ScriptOutputType type = outputType(script.result());
        try {
            return executor.execute("EVALSHA " + script.name(), script.idempotency(),
                    c -> c.evalsha(script.sha1(), type, keyArray, args));
        } catch (RedisCommandException e) {
            if (!NOSCRIPT.equals(e.errorCode())) {
                throw e;
            }
            // NOSCRIPT means the script did not run, so sending the source is safe even for a counting script.
            executor.metrics().scriptReload();
            return executor.execute("EVAL " + script.name(), script.idempotency(),
                    c -> c.eval(script.source(), type, keyArray, args));
        }
    }

    <T> CompletableFuture<T> evalAsync(RedisScript<T> script, List<String> keys, byte[]... args) {
        String[] keyArray = keyArray(keys);
        ScriptOutputType type = outputType(script.result());
        return executor.<T>executeAsync("EVALSHA " + script.name(), script.idempotency(),
                c -> c.evalsha(script.sha1(), type, keyArray, args))
                .exceptionallyCompose(e -> {
                    if (e instanceof RedisCommandException rce && NOSCRIPT.equals(rce.errorCode())) {
                        executor.metrics().scriptReload();
                        return executor.executeAsync("EVAL " + script.name(), script.idempotency(),
                                c -> c.eval(script.source(), type, keyArray, args));
                    }
                    return CompletableFuture.failedFuture(e);
                });
    }

    private static ScriptOutputType outputType(ScriptResult<?> result) {
        return switch (result.kind()) {
            case INTEGER -> ScriptOutputType.INTEGER;
            case STATUS -> ScriptOutputType.STATUS;
            case BULK -> ScriptOutputType.VALUE;
            case MULTI -> ScriptOutputType.MULTI;
            case BOOLEAN -> ScriptOutputType.BOOLEAN;
        };
    }
}
