package io.redkit.cache;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link AfterCommit} for plain JDBC: collect actions during the transaction, call {@link #committed()} after
 * {@code connection.commit()} returned, or {@link #rolledBack()} instead. Not thread-safe: one per transaction.
 */
public final class AfterCommitActions implements AfterCommit {

    private static final Logger log = LoggerFactory.getLogger(AfterCommitActions.class);

    private final List<Runnable> actions = new ArrayList<>();
    private boolean done;

    @Override
    public void register(Runnable action) {
        if (done) {
            throw new IllegalStateException("the transaction has already ended");
        }
        actions.add(action);
    }

    /** Runs every registered action in order; one that throws is logged and the rest still run. */
    public void committed() {
        done = true;
        for (Runnable action : actions) {
            try {
                action.run();
            } catch (RuntimeException e) {
                log.warn("after-commit action failed", e);
            }
        }
        actions.clear();
    }

    /** Drops every registered action. */
    public void rolledBack() {
        done = true;
        actions.clear();
    }

    /** How many actions wait for the commit. */
    public int pending() {
        return actions.size();
    }
}
