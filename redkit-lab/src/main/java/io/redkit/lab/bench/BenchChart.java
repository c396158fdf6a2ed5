package io.redkit.lab.bench;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.category.DefaultCategoryDataset;

import io.redkit.lab.bench.BenchReport.CeilingRow;
import io.redkit.lab.bench.BenchReport.Row;

/**
 * The PNG chart of a report: throughput above, p99 below (log scale), one group of bars per op and caller count, one bar per
 * contender and the ceiling. JFreeChart in headless mode: one jar without dependencies of its own, and bar
 * charts with axes and a legend are more than a hand-drawn java.awt chart would do well in few lines.
 */
final class BenchChart {

    static final int WIDTH = 1200;
    static final int HEIGHT = 820;
    private static final Color[] PALETTE = {new Color(0xD62728), new Color(0x1F77B4), new Color(0x2CA02C),
        new Color(0xFF7F0E), new Color(0x9467BD), new Color(0x8C564B), new Color(0xE377C2), new Color(0x7F7F7F)};

    private BenchChart() {
    }

    static void write(BenchReport report, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        DefaultCategoryDataset throughput = new DefaultCategoryDataset();
        DefaultCategoryDataset p99 = new DefaultCategoryDataset();
        for (Row r : report.rows()) {
            String group = group(report, r.op(), r.callers());
            throughput.addValue(r.opsPerS() / 1000, r.impl(), group);
            p99.addValue(r.p99Us(), r.impl(), group);
        }
        for (CeilingRow c : report.ceiling().rows()) {
            String group = group(report, c.op(), c.callers());
            throughput.addValue(c.opsPerS() / 1000, RedisBenchmarkTool.NAME, group);
            p99.addValue(c.p99Us(), RedisBenchmarkTool.NAME, group);
        }
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(new CategoryAxis("op @ callers"));
        CategoryPlot top = subplot(throughput, "throughput, k ops/s (median of rounds)");
        plot.add(top, 1);
        plot.add(p99Plot(p99), 1);
        JFreeChart chart = new JFreeChart("bench " + report.bench() + " — " + report.target(),
                new Font("SansSerif", Font.BOLD, 14), plot, false);
        // One legend: both subplots colour the same contender alike, so the combined legend would list each twice.
        LegendTitle legend = new LegendTitle(top.getRenderer());
        legend.setPosition(RectangleEdge.BOTTOM);
        chart.addLegend(legend);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }

    private static String group(BenchReport report, String op, int callers) {
        return (report.ops().size() > 1 ? op.toUpperCase(java.util.Locale.ROOT) + " @ " : "@ ") + callers;
    }

    /**
     * The p99 panel, on a log10 axis: one contender's outlier (Bucket4j's CAS retries reach 400 ms at 64 callers)
     * would otherwise flatten every other bar to a line. Bars rise from the axis' lower bound, never from 0.
     */
    static CategoryPlot p99Plot(DefaultCategoryDataset p99) {
        LogAxis axis = new LogAxis("p99 latency, µs, log scale (lower is better)");
        axis.setBase(10);
        // A p99 is at least one timer tick; values are never 0, and the bound keeps a log of 0 off the axis.
        axis.setSmallestValue(1);
        axis.setTickUnit(new NumberTickUnit(1)); // one tick per decade (the unit is in log space)
        axis.setNumberFormatOverride(new DecimalFormat("#,##0"));
        return subplot(p99, axis);
    }

    private static CategoryPlot subplot(DefaultCategoryDataset data, String label) {
        return subplot(data, new NumberAxis(label));
    }

    private static CategoryPlot subplot(DefaultCategoryDataset data, ValueAxis axis) {
        BarRenderer renderer = new BarRenderer();
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setItemMargin(0.02);
        for (int i = 0; i < PALETTE.length; i++) {
            renderer.setSeriesPaint(i, PALETTE[i]);
        }
        CategoryPlot plot = new CategoryPlot(data, null, axis, renderer);
        plot.setBackgroundPaint(new Color(0xF6F6F6));
        plot.setRangeGridlinePaint(Color.GRAY);
        return plot;
    }
}
