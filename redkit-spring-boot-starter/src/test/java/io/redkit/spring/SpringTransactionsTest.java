package io.redkit.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionSynchronizationUtils;

class SpringTransactionsTest {

    private final List<String> ran = new ArrayList<>();

    @AfterEach
    void clear() {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.clearSynchronization();
        }
    }

    @Test
    void theActionRunsOnceTheTransactionCommitsAndNotBefore() {
        TransactionSynchronizationManager.initSynchronization();
        SpringTransactions.afterCommit().register(() -> ran.add("invalidated"));
        assertThat(ran).isEmpty();

        TransactionSynchronizationUtils.triggerAfterCommit();
        TransactionSynchronizationUtils.triggerAfterCompletion(TransactionSynchronization.STATUS_COMMITTED);

        assertThat(ran).containsExactly("invalidated");
    }

    @Test
    void theActionNeverRunsOnRollback() {
        TransactionSynchronizationManager.initSynchronization();
        SpringTransactions.afterCommit().register(() -> ran.add("invalidated"));

        TransactionSynchronizationUtils.triggerAfterCompletion(TransactionSynchronization.STATUS_ROLLED_BACK);

        assertThat(ran).isEmpty();
    }

    @Test
    void outsideATransactionItRefusesRatherThanRunningAtOnce() {
        assertThatThrownBy(() -> SpringTransactions.afterCommit().register(() -> ran.add("invalidated")))
                .isInstanceOf(IllegalStateException.class);
        assertThat(ran).isEmpty();
    }
}
