import LaunchAnalysis
import LaunchReports
import LaunchTracing
import Testing

@Suite("trace listing")
struct TraceListingTests {
    /// One thread with `depth` spans each nested in the one before.
    static func nested(_ depth: Int) -> Trace {
        let events = (0..<UInt64(depth)).map {
            TraceEvent(
                kind: .span, category: 0, nameID: 2, fileID: 1, line: 1,
                beginNanoseconds: 1_000 + $0, endNanoseconds: 10_000_000 - $0)
        }
        return Trace(
            clockSource: .manual, processID: 1, spawn: SpawnTime(nanoseconds: 0, source: .parent),
            runtimeInitNanoseconds: 500, flushNanoseconds: 20_000_000, metadata: [:],
            strings: ["", "Test/App.swift", "Nested"],
            threads: [TraceThread(index: 0, osThreadID: 7, isMain: true, events: events)])
    }

    @Test func deepNestingIsIndentedToSixtyFourLevelsThenMarked() {
        let trace = Self.nested(5_000)
        let lines = TraceListing.text(trace, outline: TraceOutline(trace)).split(separator: "\n")
        let spans = lines.filter { $0.contains("Nested  general") }
        #expect(spans.count == 5_000)
        // Each line is bounded: 64 levels of two spaces, then how many more levels there are.
        #expect(spans.map(\.utf8.count).max() ?? .max < 250)
        #expect(spans[64].contains(String(repeating: "  ", count: 64) + "Nested"))
        #expect(spans[65].contains(String(repeating: "  ", count: 64) + "[+1] Nested"))
        #expect(spans[4_999].contains(String(repeating: "  ", count: 64) + "[+4935] Nested"))
    }
}
