package io.redkit.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.awt.geom.Rectangle2D;

import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.category.DefaultCategoryDataset;
import org.junit.jupiter.api.Test;

/** The p99 panel's axis: one outlier (Bucket4j's 400 ms) must not flatten every other bar (issue 21 point 6). */
class BenchChartTest {

    private static final Rectangle2D PANEL = new Rectangle2D.Double(0, 0, 800, 400);

    @Test
    void p99AxisIsLogTenSoEachDecadeTakesTheSameHeight() {
        ValueAxis axis = p99Axis(50, 400_000);

        double decade = y(axis, 10) - y(axis, 100);
        assertThat(decade).isPositive();
        assertThat(y(axis, 100) - y(axis, 1_000)).isCloseTo(decade, within(1e-6));
        assertThat(y(axis, 10_000) - y(axis, 100_000)).isCloseTo(decade, within(1e-6));
    }

    @Test
    void aFourHundredMillisecondOutlierLeavesAFiftyMicrosecondBarVisible() {
        ValueAxis axis = p99Axis(50, 400_000);

        // A bar rises from the axis' lower bound; on a linear axis this one would be 0.01% of the panel.
        double bar = y(axis, axis.getLowerBound()) - y(axis, 50);
        assertThat(bar / PANEL.getHeight()).isGreaterThan(0.2);
        assertThat(axis.getUpperBound()).isGreaterThanOrEqualTo(400_000);
        assertThat(axis.getLowerBound()).isPositive().isLessThanOrEqualTo(50);
    }

    private static ValueAxis p99Axis(double... p99s) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (int i = 0; i < p99s.length; i++) {
            data.addValue(p99s[i], "contender " + i, "@ 64");
        }
        CategoryPlot plot = BenchChart.p99Plot(data);
        return plot.getRangeAxis();
    }

    private static double y(ValueAxis axis, double value) {
        return axis.valueToJava2D(value, PANEL, RectangleEdge.LEFT);
    }
}
