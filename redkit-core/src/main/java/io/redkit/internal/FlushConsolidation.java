package io.redkit.internal;

import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.handler.flush.FlushConsolidationHandler;

/**
 * Puts Netty's {@link FlushConsolidationHandler} first on every connection's pipeline, so that the commands
 * callers write between two turns of the event loop leave in one {@code writev} instead of one system call each.
 *
 * <p>Lettuce writes and flushes every command on its own: with many callers on one multiplexed connection, each
 * command costs the event loop a task and a socket write. Consolidated, a flush asked for while a read is in
 * progress waits for the end of the read, and one asked for otherwise runs after the tasks already queued
 * (at most {@value FlushConsolidationHandler#DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES} writes are held back). A lone
 * caller sees its command leave one task later, within the same turn of the loop. {@code bench lock} at 64
 * callers: about a sixth more acquire+release cycles per second on the same server.
 */
public final class FlushConsolidation implements NettyCustomizer {

    @Override
    public void afterChannelInitialized(Channel channel) {
        channel.pipeline().addFirst("redkit-flush-consolidation", new FlushConsolidationHandler(
                FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
    }
}
