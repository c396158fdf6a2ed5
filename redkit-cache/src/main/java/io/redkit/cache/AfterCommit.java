package io.redkit.cache;

/**
 * Where an invalidation waits for the database transaction to commit: anything that runs an action once after
 * commit and never after rollback. With Spring, the starter's {@code io.redkit.spring.SpringTransactions.afterCommit()};
 * with plain JDBC, {@link AfterCommitActions}.
 */
@FunctionalInterface
public interface AfterCommit {

    /** Runs {@code action} once the current transaction has committed; drops it on rollback. */
    void register(Runnable action);
}
