package io.redkit.testing.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** One node's view of a Redis Cluster, parsed from CLUSTER NODES (6.2 and 7.x formats). */
public final class ClusterNodes {

    /** Number of hash slots in a Redis Cluster. */
    public static final int SLOTS = 16384;

    private final List<Node> nodes;
    private final boolean openSlots;

    private ClusterNodes(List<Node> nodes, boolean openSlots) {
        this.nodes = List.copyOf(nodes);
        this.openSlots = openSlots;
    }

    /**
     * One line of CLUSTER NODES.
     *
     * @param id node id
     * @param host announced IP (empty for a node without address)
     * @param port client port
     * @param flags flags such as myself, master, slave, fail?, fail, handshake, noaddr
     * @param masterId id of the master of a replica, or {@code null}
     * @param slots owned slot ranges as {from, to} inclusive
     */
    public record Node(String id, String host, int port, Set<String> flags, String masterId, List<int[]> slots) {

        /** Tells whether the node is flagged master. */
        public boolean isMaster() {
            return flags.contains("master");
        }

        /** Tells whether the node is flagged slave (replica). */
        public boolean isReplica() {
            return flags.contains("slave");
        }

        /** Tells whether the node is suspected or known to be failing, or not yet fully met. */
        public boolean isTroubled() {
            return flags.contains("fail") || flags.contains("fail?") || flags.contains("pfail")
                    || flags.contains("handshake") || flags.contains("noaddr");
        }

        /** Returns how many slots the node owns. */
        public int slotCount() {
            return slots.stream().mapToInt(r -> r[1] - r[0] + 1).sum();
        }

        /** Tells whether the node owns {@code slot}. */
        public boolean owns(int slot) {
            return slots.stream().anyMatch(r -> r[0] <= slot && slot <= r[1]);
        }

        private String describe() {
            String ranges = slots.stream().map(r -> r[0] + "-" + r[1]).collect(Collectors.joining(","));
            return id + " " + (isMaster() ? "master" : isReplica() ? "replica-of " + masterId : "?") + " " + ranges;
        }
    }

    /** Parses the text of CLUSTER NODES. */
    public static ClusterNodes parse(String text) {
        List<Node> nodes = new ArrayList<>();
        boolean open = false;
        for (String line : text.split("\\R")) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.trim().split(" ");
            // ip:port@cport in 6.2; 7.x may append ",hostname".
            String address = f[1].split("@")[0];
            int colon = address.lastIndexOf(':');
            String host = address.substring(0, colon);
            int port = Integer.parseInt(address.substring(colon + 1));
            Set<String> flags = Set.of(f[2].split(","));
            String masterId = f[3].equals("-") ? null : f[3];
            List<int[]> slots = new ArrayList<>();
            for (int i = 8; i < f.length; i++) {
                if (f[i].startsWith("[")) {
                    open = true; // a slot being migrated or imported: "[slot->-id]" / "[slot-<-id]"
                } else {
                    String[] range = f[i].split("-");
                    int from = Integer.parseInt(range[0]);
                    slots.add(new int[] {from, range.length > 1 ? Integer.parseInt(range[1]) : from});
                }
            }
            nodes.add(new Node(f[0], host, port, flags, masterId, slots));
        }
        return new ClusterNodes(nodes, open);
    }

    /** Returns every node in this view. */
    public List<Node> nodes() {
        return nodes;
    }

    /** Returns the node answering on {@code port}. */
    public Optional<Node> byPort(int port) {
        return nodes.stream().filter(n -> n.port() == port).findFirst();
    }

    /** Returns the node with this id. */
    public Optional<Node> byId(String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).findFirst();
    }

    /** Returns the node that answered CLUSTER NODES. */
    public Node myself() {
        return nodes.stream().filter(n -> n.flags().contains("myself")).findFirst()
                .orElseThrow(() -> new IllegalStateException("CLUSTER NODES output has no 'myself' line"));
    }

    /** Returns the master owning {@code slot}. */
    public Optional<Node> ownerOf(int slot) {
        return nodes.stream().filter(n -> n.isMaster() && n.owns(slot)).findFirst();
    }

    /**
     * Returns the current masters: nodes flagged master that own slots or are not failed, so that a
     * dead master whose slots a replica took over no longer counts while one still owning slots does.
     */
    public List<Node> masters() {
        return nodes.stream().filter(Node::isMaster).filter(n -> n.slotCount() > 0 || !n.isTroubled()).toList();
    }

    /** Returns the nodes flagged as replicas. */
    public List<Node> replicas() {
        return nodes.stream().filter(Node::isReplica).toList();
    }

    /** Returns the replicas of the master with this id. */
    public List<Node> replicasOf(String masterId) {
        return nodes.stream().filter(n -> n.isReplica() && masterId.equals(n.masterId())).toList();
    }

    /** Returns how many slots are owned by some master in this view. */
    public int assignedSlots() {
        return nodes.stream().filter(Node::isMaster).mapToInt(Node::slotCount).sum();
    }

    /** Tells whether some slot is being migrated or imported. */
    public boolean hasOpenSlots() {
        return openSlots;
    }

    /**
     * Describes who owns which slots and who replicates whom, independently of the node that was asked,
     * so that two views agree exactly when their signatures are equal.
     */
    public String signature() {
        return nodes.stream().sorted(Comparator.comparing(Node::id)).map(Node::describe).collect(Collectors.joining("\n"));
    }

    /** Describes the view for error messages. */
    @Override
    public String toString() {
        return nodes.stream().map(n -> n.port() + ":" + String.join(",", n.flags()) + Arrays.toString(new int[] {n.slotCount()}))
                .collect(Collectors.joining(" "));
    }
}
