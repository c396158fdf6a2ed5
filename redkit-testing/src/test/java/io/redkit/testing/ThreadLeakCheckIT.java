package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.time.Duration;
import java.util.Map;
import io.redkit.testing.internal.Poll;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.EventConditions;
import org.junit.platform.testkit.engine.TestExecutionResultConditions;

/** A test that leaves a thread running fails, so its work cannot reach the servers while the next test counts. */
class ThreadLeakCheckIT {

    private static final CountDownLatch RELEASE = new CountDownLatch(1);
    private static final CountDownLatch RELEASE_PER_METHOD = new CountDownLatch(1);
    private static final CountDownLatch CLASS_POOL_DONE = new CountDownLatch(1);

    @Test
    void aThreadStillRunningAfterTheGraceFailsNamingItAndTheTestThatStartedIt() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        ThreadLeakCheck check = ThreadLeakCheck.snapshot();
        Thread leaked = new Thread(() -> await(done), "left-running-by-a-test");
        leaked.start();
        try {
            assertThatThrownBy(() -> check.verify("SomeIT", Map.of(leaked, "someTest()")))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("SomeIT left 1 thread(s) running")
                    .hasMessageContaining("\"left-running-by-a-test\", started during someTest()");
        } finally {
            done.countDown();
            leaked.join();
        }
    }

    @Test
    void aThreadThatEndsWithinTheGraceIsWaitedFor() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        ThreadLeakCheck check = ThreadLeakCheck.snapshot();
        Thread ending = new Thread(() -> {
            started.countDown();
            long until = System.nanoTime() + 300_000_000L; // still shutting down when the check begins
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        }, "shutting-down");
        ending.start();
        started.await();

        assertThatCode(() -> check.verify("someTest()")).doesNotThrowAnyException();
        assertThat(ending.isAlive()).isFalse();
    }

    @Test
    void jvmWidePoolsAreNotCounted() {
        assertThat(ThreadLeakCheck.jvmWide("ForkJoinPool.commonPool-worker-3")).isTrue();
        assertThat(ThreadLeakCheck.jvmWide("globalEventExecutor-2-7")).isTrue();
        assertThat(ThreadLeakCheck.jvmWide("lettuce-nioEventLoop-4-1")).isFalse();
        assertThat(ThreadLeakCheck.jvmWide("redkit-timer-default")).isFalse();
    }

    @Test
    void anIdleWorkerOfACachedPoolIsNotCountedButOneOfAFixedPoolIs() throws Exception {
        ThreadLeakCheck check = ThreadLeakCheck.snapshot();
        ExecutorService cached = Executors.newCachedThreadPool(r -> new Thread(r, "idle-cached-worker"));
        ExecutorService fixed = Executors.newFixedThreadPool(1, r -> new Thread(r, "idle-fixed-worker"));
        try {
            cached.submit(() -> { }).get();
            fixed.submit(() -> { }).get();
            Poll.until("the cached pool's worker to wait idle", Duration.ofSeconds(5), () -> check.startedSince().stream().noneMatch(t -> t.getName().equals("idle-cached-worker")));

            // The cached pool's worker waits for its keep-alive and ends; the fixed pool's waits for work forever.
            assertThatThrownBy(() -> check.verify("SomeIT")).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("SomeIT left 1 thread(s) running").hasMessageContaining("\"idle-fixed-worker\"")
                    .hasMessageNotContaining("idle-cached-worker");
        } finally {
            cached.shutdownNow();
            fixed.shutdownNow();
            assertThat(cached.awaitTermination(5, TimeUnit.SECONDS) && fixed.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aClassWhoseTestLeaksAThreadFailsNamingTheTest() {
        try {
            var events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(Leaky.class)).execute();
            events.testEvents().assertStatistics(stats -> stats.succeeded(3).failed(0));
            events.containerEvents().assertThatEvents().haveExactly(1, EventConditions.finishedWithFailure(
                    TestExecutionResultConditions.message(m -> m.contains("Leaky left 1 thread(s)")
                            && m.contains("\"leaked-by-leaksAThread\", started during leaksAThread()")
                            && !m.contains("class-pool"))));
        } finally {
            RELEASE.countDown();
        }
    }

    @Test
    void aTestWithAServerOfItsOwnFailsAtOnceWhenItLeaks() {
        try {
            EngineTestKit.engine("junit-jupiter").selectors(selectClass(LeakyPerMethod.class)).execute()
                    .testEvents().assertStatistics(stats -> stats.succeeded(0).failed(1))
                    .assertThatEvents().haveExactly(1, EventConditions.finishedWithFailure(
                            TestExecutionResultConditions.message(m -> m.contains("leaksAThread() left 1 thread(s)"))));
        } finally {
            RELEASE_PER_METHOD.countDown();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Run by the tests above through the test kit, not by the build (the build runs only *IT and *Test classes). */
    static class Leaky {

        @RegisterExtension
        static final RedisServerExtension redis = RedisServerExtension.standalone();

        private static Thread classPool;

        @BeforeAll
        static void classResource() {
            classPool = new Thread(() -> { }, "unused");
        }

        @AfterAll
        static void closeClassResource() throws InterruptedException {
            CLASS_POOL_DONE.countDown();
            if (classPool.isAlive()) {
                classPool.join();
            }
        }

        @Test
        void startsAThreadOfTheClassLazily() {
            // What a client made in @BeforeAll does inside the first test that needs it; it ends with the class.
            classPool = new Thread(() -> await(CLASS_POOL_DONE), "class-pool-1");
            classPool.start();
        }

        @Test
        void leaksAThread() {
            new Thread(() -> await(RELEASE), "leaked-by-leaksAThread").start();
        }

        @Test
        void closesWhatItStarts() throws Exception {
            Thread worker = new Thread(() -> redis.command("PING"), "joined-by-its-test");
            worker.start();
            worker.join();
        }
    }

    /** Run by the tests above through the test kit. */
    static class LeakyPerMethod {

        @RegisterExtension
        final RedisServerExtension redis = RedisServerExtension.standalone();

        @Test
        void leaksAThread() {
            new Thread(() -> await(RELEASE_PER_METHOD), "leaked-by-a-per-method-test").start();
        }
    }
}
