import LaunchAnalysis
import LaunchTracing
import Testing

/// "Why it changed" follows a span whose line moved (code added above it): the same
/// work, not new work, when its name is unique in its file, else the nearest line.
@Suite("FindingsDiff: a moved line")
struct MovedLineTests {
    static let ms = TraceBuilder.ms

    /// The standard launch with `Extra` spans (App.swift) at `lines`, each `cpu` ms of CPU work.
    func report(extra lines: [UInt32], cpu: UInt64) throws -> MeasurementReport {
        var builder = TraceBuilder.launch()
        var begin = 112 * Self.ms
        for line in lines {
            builder.span("Extra", begin, begin + cpu * Self.ms, line: line, category: .compute, cpu: cpu * Self.ms)
            begin += cpu * Self.ms + Self.ms
        }
        return try MeasurementReportTests.instrumented(trace: builder.trace())
    }

    @Test func aSpanUniqueInItsFileIsFollowedToItsNewLine() throws {
        let diff = FindingsDiff(base: try report(extra: [11], cpu: 7), head: try report(extra: [16], cpu: 12))
        #expect(!diff.new.contains { $0.span == "Extra" }, "\(diff.new.map(\.place))")
        #expect(!diff.gone.contains { $0.span == "Extra" }, "\(diff.gone.map(\.place))")
        let span = try #require(diff.spans.first { $0.name == "Extra" })
        #expect(span.line == 16 && span.baseLine == 11)
        #expect(span.baseMs != nil && span.headMs != nil)
        let finding = try #require(diff.moved.first { $0.span == "Extra" })
        #expect(finding.line == 16 && finding.baseLine == 11)
    }

    @Test func namesUsedTwiceInAFileAreFollowedToTheNearestLine() throws {
        // Short spans: both must begin before the first frame (121 ms).
        let diff = FindingsDiff(base: try report(extra: [50, 70], cpu: 3), head: try report(extra: [52, 75], cpu: 4))
        let spans = diff.spans.filter { $0.name == "Extra" }
        #expect(Set(spans.map { "\($0.baseLine ?? 0)→\($0.line)" }) == ["50→52", "70→75"], "\(spans)")
        #expect(spans.allSatisfy { $0.baseMs != nil })
    }
}
