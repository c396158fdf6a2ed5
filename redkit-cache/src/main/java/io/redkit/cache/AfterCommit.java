package io.redkit.cache;

/**
 * Where an invalidation waits for the database transaction to commit: anything that runs an action once after
 * commit and never after rollback. With Spring:
 * {@code r -> TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
 * public void afterCommit() { r.run(); } })}; with plain JDBC, {@link AfterCommitActions}.
 */
@FunctionalInterface
public interface AfterCommit {

    /** Runs {@code action} once the current transaction has committed; drops it on rollback. */
    void register(Runnable action);
}
