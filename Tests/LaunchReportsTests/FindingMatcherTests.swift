import LaunchReports
import LaunchTracing
import Testing

@testable import LaunchAnalysis

/// A finding is matched to its spans by ``SpanRecord/key``: the same name and
/// call site; a finding without one (a hook over its budget) by its name.
@Suite("Finding matcher")
struct FindingMatcherTests {
    func span(_ name: String, file: String = "App/Store.swift", line: Int = 40) -> SpanRecord {
        SpanRecord(
            name: name, category: .io, file: file, line: line, beginNanoseconds: 0, endNanoseconds: 1_000_000, depth: 0,
            isOpen: false,
            beforeFirstFrame: true, selfNanoseconds: 1_000_000, blockedNanoseconds: [:])
    }

    func finding(_ name: String, file: String?, line: Int?) -> Finding {
        Finding(
            rule: .mainThreadDiskIO, severity: .warning, span: name, file: file, line: line, medianMs: 1,
            spanMedianMs: 1,
            runsAppeared: 1, runsTotal: 1, budgetShare: 0.01, recommendation: "move it")
    }

    @Test func aFindingsSpanKeyIsItsSpansKey() {
        let found = finding("Load", file: "App/Store.swift", line: 40)
        #expect(found.spanKey == span("Load").key)
        #expect(found.spanKey == SpanRecord.key(name: "Load", file: "App/Store.swift", line: 40))
        #expect(finding("didFinishLaunching", file: nil, line: nil).spanKey == nil)
    }

    @Test func spansAreMatchedByNameAndCallSiteAndHooksByName() {
        let matcher = FindingMatcher([
            finding("Load", file: "App/Store.swift", line: 40), finding("didFinishLaunching", file: nil, line: nil),
        ])
        #expect(matcher.findings(for: span("Load")) == [0])
        #expect(matcher.findings(for: span("Load", line: 41)).isEmpty, "another call site")
        #expect(matcher.findings(for: span("Load", file: "App/Other.swift")).isEmpty)
        #expect(
            matcher.findings(for: span("didFinishLaunching", file: "LaunchHarness/LaunchSequence.swift", line: 9)) == [
                1
            ])
    }
}
