package io.redkit.demo;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import io.redkit.cache.AfterCommit;

/** redkit's {@link AfterCommit} on Spring's transaction synchronization. */
final class SpringTransactions {

    /**
     * Runs an action once the current Spring transaction commits, never on rollback; outside a transaction it
     * throws (an "after commit" with no transaction is a bug, not something to run at once).
     */
    static final AfterCommit AFTER_COMMIT = action -> TransactionSynchronizationManager.registerSynchronization(
            new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    action.run();
                }
            });

    private SpringTransactions() {
    }
}
