package io.redkit.spring;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import io.redkit.cache.AfterCommit;

/**
 * redkit-cache's {@link AfterCommit} on Spring's transaction synchronization, for
 * {@code cache.invalidateAfterCommit(SpringTransactions.afterCommit(), keys)} inside a {@code @Transactional} method.
 * Needs spring-tx (and redkit-cache) on the class path.
 */
public final class SpringTransactions {

    private static final AfterCommit AFTER_COMMIT = action -> TransactionSynchronizationManager
            .registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    action.run();
                }
            });

    private SpringTransactions() {
    }

    /**
     * Runs an action once the current Spring transaction commits, never on rollback. Outside a transaction it
     * throws {@link IllegalStateException}: an "after commit" with no transaction is a bug, not something to run
     * at once.
     */
    public static AfterCommit afterCommit() {
        return AFTER_COMMIT;
    }
}
