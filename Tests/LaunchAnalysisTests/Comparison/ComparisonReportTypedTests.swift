import LaunchAnalysis
import LaunchTracing
import Testing

/// The comparison's deciding metric and sides as typed values, which renderers decide by.
@Suite("Comparison report: typed ids and sides")
struct ComparisonReportTypedTests {
    @Test func theDecidingMetricIsTypedAndMarksItsOwnRowOnly() throws {
        let base = try MetricChoiceTests.measured(MetricChoiceTests.times, cpu: MetricChoiceTests.times)
        let head = try MetricChoiceTests.measured(MetricChoiceTests.times, cpu: MetricChoiceTests.times.map { $0 * 2 })
        let wall = MetricChoiceTests.compare(base, head, metrics: [.wall, .cpu])
        let total = try #require(wall.primaryTotal)
        #expect(wall.primaryID == .total(total))
        #expect(wall.metrics.filter(wall.isPrimary).map(\.id) == [.total(total)])
        #expect(
            wall.metrics.contains { $0.id == .cpuTime }
                && !wall.metrics.filter { $0.id == .cpuTime }.contains(where: wall.isPrimary))
        #expect(wall.sides.map(\.side) == [.base, .head])
        #expect(wall.sides.map(\.report) == [wall.base, wall.head])
    }

    @Test func aMetricNoVersionWritesIsNeverTheDecidingOne() throws {
        let base = try MetricChoiceTests.measured(MetricChoiceTests.times)
        var report = MetricChoiceTests.compare(base, base, metrics: [.wall])
        report.primaryMetric = "speed"
        #expect(report.primaryID == nil && report.primaryTotal == nil)
        var unknown = try #require(report.metrics.first)
        unknown.name = "speed"
        #expect(!report.isPrimary(unknown), "two unreadable names are not one metric")
    }
}
