package io.redkit.lab.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The one-screen summary of every benchmark for the top-level README (its {@code bench:summary} block), made from
 * the {@code NAME.json} files a run wrote into {@code docs/bench}: per benchmark and op, redkit's throughput over
 * each other contender's at the largest caller count, and how many of the benchmark's aims were met. The full
 * tables and charts are in {@code docs/bench/README.md}, written by the same run.
 */
final class BenchSummary {

    /** The marker name of the summary block in the top-level README. */
    static final String BLOCK = "summary";

    private static final ObjectMapper JSON = new ObjectMapper();

    private BenchSummary() {
    }

    /** The summary of the reports in {@code dir} ({@code NAME.json}, in {@link Benchmarks#names()} order). */
    static String of(Path dir) throws IOException {
        List<JsonNode> reports = new ArrayList<>();
        for (String name : Benchmarks.names()) {
            Path json = dir.resolve(name + ".json");
            if (Files.isRegularFile(json)) {
                reports.add(JSON.readTree(Files.readString(json, StandardCharsets.UTF_8)));
            }
        }
        return render(reports);
    }

    static String render(List<JsonNode> reports) {
        StringBuilder md = new StringBuilder();
        md.append("| bench | op | callers | redkit's throughput ÷ each other contender's | aims met | run |\n");
        md.append("|---|---|---|---|---|---|\n");
        for (JsonNode report : reports) {
            String bench = report.path("bench").asText();
            int callers = mostCallers(report.path("ratios"));
            Map<String, List<String>> byOp = ratiosAt(report.path("ratios"), callers);
            String aims = aims(report.path("aims"));
            String run = report.path("started_at").asText().length() >= 10
                    ? report.path("started_at").asText().substring(0, 10) : "";
            boolean first = true;
            for (Map.Entry<String, List<String>> op : byOp.entrySet()) {
                md.append("| [").append(bench).append("](docs/bench/README.md#bench-").append(bench).append(") | ")
                        .append(op.getKey().isEmpty() ? "—" : op.getKey()).append(" | ").append(callers).append(" | ")
                        .append(String.join(", ", op.getValue())).append(" | ")
                        .append(first ? aims : "").append(" | ").append(first ? run : "").append(" |\n");
                first = false;
            }
        }
        return md.toString();
    }

    /** The largest N of the ratios keyed {@code [op:]subject/other@N}. */
    private static int mostCallers(JsonNode ratios) {
        int most = 0;
        for (var it = ratios.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            most = Math.max(most, Integer.parseInt(key.substring(key.lastIndexOf('@') + 1)));
        }
        return most;
    }

    /** Op → "other ratio×" for the ratios keyed {@code [op:]subject/other@N} at N = {@code most}. */
    private static Map<String, List<String>> ratiosAt(JsonNode ratios, int most) {
        Map<String, List<String>> byOp = new LinkedHashMap<>();
        for (var it = ratios.fields(); it.hasNext(); ) {
            var e = it.next();
            String key = e.getKey();
            int at = key.lastIndexOf('@');
            if (Integer.parseInt(key.substring(at + 1)) != most) {
                continue;
            }
            int colon = key.indexOf(':');
            String op = colon < 0 ? "" : key.substring(0, colon);
            String pair = key.substring(colon + 1, at);
            String other = pair.substring(pair.indexOf('/') + 1);
            byOp.computeIfAbsent(op, k -> new ArrayList<>()).add(other + " " + String.format(Locale.ROOT, "%.2f",
                    e.getValue().asDouble()) + "×");
        }
        return byOp;
    }

    /** How a missed aim missed its bound: under its floor, over its ceiling, or not below its strict bound. */
    private static String missedBound(JsonNode aim) {
        if (aim.hasNonNull("at_least")) {
            return " < " + aim.path("at_least").asText();
        }
        return aim.hasNonNull("at_most") ? " > " + aim.path("at_most").asText() : " ≥ " + aim.path("below").asText();
    }

    private static String aims(JsonNode aims) {
        int met = 0;
        List<String> missed = new ArrayList<>();
        for (JsonNode aim : aims) {
            if (aim.path("met").asBoolean()) {
                met++;
            } else {
                missed.add(aim.path("ratio").asText() + " " + String.format(Locale.ROOT, "%.2f", aim.path("value")
                        .asDouble()) + missedBound(aim));
            }
        }
        String count = met + " of " + aims.size();
        return missed.isEmpty() ? count : count + " (missed: " + String.join("; ", missed) + ")";
    }
}
