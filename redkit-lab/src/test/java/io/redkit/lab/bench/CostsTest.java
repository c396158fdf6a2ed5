package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import io.redkit.lab.bench.Costs.Snapshot;
import io.redkit.lab.bench.Costs.Spent;

/** What a round allocated and spent in CPU, over every live thread of the process, and per op. */
class CostsTest {

    @Test
    void anotherLiveThreadsAllocationIsCounted() throws Exception {
        CountDownLatch allocated = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        byte[][] kept = new byte[1][];
        Snapshot before = Costs.now();
        Thread t = new Thread(() -> {
            kept[0] = new byte[8 << 20];
            allocated.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        allocated.await();
        Snapshot after = Costs.now();
        release.countDown();
        t.join();
        assertThat(kept[0]).hasSize(8 << 20);
        assertThat(Costs.between(before, after).allocatedBytes()).isGreaterThanOrEqualTo(8 << 20);
    }

    @Test
    void bytesAllocatedBetweenTwoSnapshotsAreCounted() {
        Snapshot before = Costs.now();
        byte[] block = new byte[4 << 20];
        Snapshot after = Costs.now();
        assertThat(block).hasSize(4 << 20);
        assertThat(Costs.between(before, after).allocatedBytes()).isGreaterThanOrEqualTo(4 << 20);
    }

    @Test
    void aThreadBornWithinTheStretchCountsFromZeroAndOneThatEndedIsLeftOut() {
        Snapshot before = new Snapshot(Map.of(1L, 1_000L, 2L, 5_000L), 10_000);
        Snapshot after = new Snapshot(Map.of(1L, 1_600L, 3L, 400L), 25_000);
        assertThat(Costs.between(before, after)).isEqualTo(new Spent(1_000, 15_000));
    }

    @Test
    void perOpFiguresAreTheSumOverRoundsDividedByCalls() {
        Spent rounds = new Spent(3_000, 40_000).plus(new Spent(1_500, 20_000));
        assertThat(rounds.bytesPerOp(30)).isEqualTo(150.0);
        assertThat(rounds.cpuMicrosPerOp(30)).isEqualTo(2.0);
        assertThat(rounds.cpuMicrosPerOp(0)).isNull();
    }

    @Test
    void unknownStaysUnknownInSumsAndPerOp() {
        Spent unknown = new Spent(-1, -1).plus(new Spent(100, 100));
        assertThat(unknown.bytesPerOp(10)).isNull();
        assertThat(unknown.cpuMicrosPerOp(10)).isNull();
        assertThat(List.of(unknown.allocatedBytes(), unknown.cpuNanos())).containsOnly(-1L);
    }
}
