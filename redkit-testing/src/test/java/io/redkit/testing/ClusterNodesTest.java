package io.redkit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.redkit.testing.internal.ClusterNodes;
import org.junit.jupiter.api.Test;

class ClusterNodesTest {

    private static final String REDIS_7 = """
            aaa 127.0.0.1:30001@40001, myself,master - 0 0 1 connected 0-5460
            bbb 127.0.0.1:30002@40002, master - 0 1700000000000 2 connected 5461-10922 [10923-<-ccc]
            ccc 127.0.0.1:30003@40003, master,fail - 1700000000000 1700000000000 3 disconnected 10923-16383
            ddd 127.0.0.1:30004@40004, slave aaa 0 1700000000000 1 connected
            eee 127.0.0.1:30005@40005,host-e slave bbb 0 1700000000000 2 connected
            """;

    private static final String REDIS_62_AFTER_FAILOVER = """
            fff 127.0.0.1:30006@40006 master,fail - 0 0 3 disconnected
            aaa 127.0.0.1:30001@40001 myself,master - 0 0 1 connected 0-5460 5462
            """;

    @Test
    void parsesRolesSlotsAndAddressesOfBothFormats() {
        ClusterNodes view = ClusterNodes.parse(REDIS_7);
        assertThat(view.nodes()).hasSize(5);
        assertThat(view.myself().id()).isEqualTo("aaa");
        assertThat(view.byPort(30005).orElseThrow().masterId()).isEqualTo("bbb");
        assertThat(view.ownerOf(5461).orElseThrow().port()).isEqualTo(30002);
        assertThat(view.assignedSlots()).isEqualTo(16384);
        assertThat(view.hasOpenSlots()).isTrue();
        assertThat(view.replicasOf("aaa")).extracting(ClusterNodes.Node::port).containsExactly(30004);
        assertThat(view.byPort(30003).orElseThrow().isTroubled()).isTrue();
    }

    @Test
    void failedMasterWithoutSlotsIsNoLongerAMaster() {
        ClusterNodes view = ClusterNodes.parse(REDIS_62_AFTER_FAILOVER);
        assertThat(view.masters()).extracting(ClusterNodes.Node::id).containsExactly("aaa");
        assertThat(view.myself().slotCount()).isEqualTo(5462);
        assertThat(view.myself().owns(5462)).isTrue();
        assertThat(view.myself().owns(5461)).isFalse();
    }

    @Test
    void signatureIgnoresWhoWasAsked() {
        String fromA = "aaa 127.0.0.1:1@2 myself,master - 0 0 1 connected 0-16383\nbbb 127.0.0.1:3@4 slave aaa 0 0 1 connected\n";
        String fromB = "bbb 127.0.0.1:3@4 myself,slave aaa 0 0 1 connected\naaa 127.0.0.1:1@2 master - 0 5 1 connected 0-16383\n";
        assertThat(ClusterNodes.parse(fromA).signature()).isEqualTo(ClusterNodes.parse(fromB).signature());
    }
}
