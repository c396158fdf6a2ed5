package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * The contenders' turns: a contender that always ran right after the same one inherited its leftovers every round
 * (in {@code bench limit}, raw Lettuce's 10,000 keys expiring on the server and its garbage, always before redkit).
 */
class BenchRunOrderTest {

    private static final int ROUNDS = 5;

    @Test
    void everyRoundIsAPermutationAndNoContenderAlwaysFollowsTheSameOne() {
        for (int n = 3; n <= 9; n++) {
            Set<Integer>[] predecessors = predecessorSets(n);
            Set<Integer> first = new HashSet<>();
            Set<Integer> last = new HashSet<>();
            for (int r = 0; r < ROUNDS; r++) {
                int[] order = BenchRun.order(r, n);
                assertThat(Arrays.stream(order).sorted().toArray()).as("round %d of %d", r, n)
                        .containsExactly(java.util.stream.IntStream.range(0, n).toArray());
                first.add(order[0]);
                last.add(order[n - 1]);
                for (int k = 1; k < n; k++) {
                    predecessors[order[k]].add(order[k - 1]);
                }
            }
            assertThat(first).as("first contenders of %d", n).hasSizeGreaterThan(1);
            assertThat(last).as("last contenders of %d", n).hasSizeGreaterThan(1);
            for (int i = 0; i < n; i++) {
                assertThat(predecessors[i]).as("contenders run right before %d of %d", i, n).hasSizeGreaterThan(1);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Set<Integer>[] predecessorSets(int n) {
        Set<Integer>[] sets = new Set[n];
        for (int i = 0; i < n; i++) {
            sets[i] = new HashSet<>();
        }
        return sets;
    }
}
