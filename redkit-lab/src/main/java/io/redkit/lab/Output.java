package io.redkit.lab;

import java.io.PrintWriter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;

/** How lab and bench results are printed: one JSON object, or an aligned plain-text table. */
public final class Output {

    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    private Output() {
    }

    /** Prints {@code report} as exactly one JSON object and a newline. */
    public static void json(PrintWriter out, Object report) {
        try {
            out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("report is not serialisable: " + report, e);
        }
    }

    /** Prints a titled table whose columns fit their widest cell. */
    public static void table(PrintWriter out, String title, String[] header, String[][] rows) {
        int[] widths = new int[header.length];
        for (int c = 0; c < header.length; c++) {
            widths[c] = header[c].length();
            for (String[] row : rows) {
                widths[c] = Math.max(widths[c], row[c] == null ? 0 : row[c].length());
            }
        }
        out.println(title);
        printRow(out, header, widths);
        StringBuilder rule = new StringBuilder();
        for (int w : widths) {
            rule.append("-".repeat(w)).append("  ");
        }
        out.println(rule.toString().stripTrailing());
        for (String[] row : rows) {
            printRow(out, row, widths);
        }
    }

    private static void printRow(PrintWriter out, String[] cells, int[] widths) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            String cell = cells[c] == null ? "" : cells[c];
            sb.append(cell).append(" ".repeat(widths[c] - cell.length() + 2));
        }
        out.println(sb.toString().stripTrailing());
    }
}
