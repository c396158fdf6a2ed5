package io.redkit.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.redkit.testing.RedisServer;

/** Two instances of the service on one Redis and one database: the report job runs once per period. */
class ReportJobIT {

    @Test
    void twoInstancesRunTheJobOncePerPeriod() throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            String database = DemoInstance.freshDatabase();
            try (DemoInstance a = DemoInstance.start(redis, database, "--demo.instance-id=a",
                    "--demo.report.period=1s");
                    DemoInstance b = DemoInstance.start(redis, database, "--demo.instance-id=b",
                            "--demo.report.period=1s")) {
                Thread.sleep(8_000);
            }

            Map<String, Integer> runsPerPeriod = new TreeMap<>();
            Map<String, Long> fences = new LinkedHashMap<>();
            try (Connection c = DriverManager.getConnection(database); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT period, count(*) FROM report_runs GROUP BY period")) {
                    while (rs.next()) {
                        runsPerPeriod.put(rs.getString(1), rs.getInt(2));
                    }
                }
                try (ResultSet rs = s.executeQuery("SELECT id, fence FROM reports ORDER BY id")) {
                    while (rs.next()) {
                        fences.put(rs.getString(1), rs.getLong(2));
                    }
                }
            }
            // Both instances looked five times a second for eight seconds; each period still ran once.
            assertThat(runsPerPeriod).hasSizeGreaterThanOrEqualTo(5);
            assertThat(runsPerPeriod.values()).containsOnly(1);
            assertThat(fences.keySet()).containsExactlyElementsOf(runsPerPeriod.keySet());
            // Each run held a newer lease than the one before: the fences grow with the periods.
            assertThat(new java.util.ArrayList<>(fences.values())).isSorted().doesNotHaveDuplicates();
        }
    }
}
