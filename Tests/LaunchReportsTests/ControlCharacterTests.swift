import LaunchAnalysis
import LaunchReports
import LaunchTracing
import Testing

/// Text from the measured program or its trace is printed with its control
/// characters escaped, in every format a terminal or a CI log shows, with
/// colour or without.
@Suite("Control characters in printed reports")
struct ControlCharacterTests {
    /// Sets the terminal's title, then clears the screen.
    static let hostile = "\u{1b}]0;pwned\u{07}\u{1b}[2J"
    static let shown = #"\u{1B}]0;pwned\u{07}\u{1B}[2J"#

    @Test func theHelperEscapesC0DELC1AndReorderingCharacters() {
        #expect(ControlCharacters.escaped(Self.hostile) == Self.shown)
        #expect(ControlCharacters.escaped("a\nb\tc\rd") == #"a\nb\tc\rd"#)
        #expect(ControlCharacters.escaped("\u{0}\u{7F}\u{9B}31m") == #"\u{00}\u{7F}\u{9B}31m"#)
        #expect(ControlCharacters.escaped("abc\u{202E}cba") == #"abc\u{202E}cba"#)
        // Everything else is kept as it is, non-ASCII included.
        #expect(ControlCharacters.escaped("Décode · 読み込み ✓ \\") == "Décode · 読み込み ✓ \\")
    }

    @Test func aSpanNamedWithAnEscapeSequenceRendersEscaped() throws {
        let report = Self.report()
        #expect(
            report.profile.findings.contains { $0.span == Self.hostile }, "the span is a finding: the test shows it")
        let comparison = ComparisonReport(
            plan: ComparisonPlan(name: Self.hostile, source: .storedReports, settings: GateSettings(), stages: [3]),
            base: report, head: Self.report(slower: true), stagesRun: 1, createdAt: "2026-11-23T10:00:00Z")
        for document in [ReportDocument.measurement(report), .comparison(comparison)] {
            for color in [false, true] {
                let text = TerminalReport.render(document, options: RenderOptions(color: color, findingsLimit: .max))
                Self.expectNoControlCharacters(text, allowingColor: color)
                #expect(text.contains(Self.shown))
            }
            let markdown = MarkdownReport.render(document)
            Self.expectNoControlCharacters(markdown, allowingColor: false)
            #expect(markdown.contains(#"\\u{1B}]0;pwned\\u{07}\\u{1B}\[2J"#) || markdown.contains(Self.shown))
            let annotations = GitHubAnnotations.render(document) { _, _ in "App/\(Self.hostile).swift" }
            Self.expectNoControlCharacters(annotations, allowingColor: false)
            #expect(
                TerminalReport.verdictLine(document, color: false).unicodeScalars.allSatisfy {
                    !ControlCharacters.isEscaped($0)
                })
        }
        // A failed run's problem quotes the program's standard error.
        let text = TerminalReport.render(report, color: false)
        #expect(text.contains("run 4: exited with code 1 (stderr: " + Self.shown + ")"))
    }

    /// Fails on any control character but line breaks and, with colour, the
    /// renderer's own SGR sequences (`ESC [ digits ; … m`).
    static func expectNoControlCharacters(
        _ text: String, allowingColor: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", allowingColor, index + 1 < scalars.count, scalars[index + 1] == "[" {
                var end = index + 2
                while end < scalars.count, "0123456789;".unicodeScalars.contains(scalars[end]) { end += 1 }
                if end < scalars.count, scalars[end] == "m" {
                    index = end + 1
                    continue
                }
            }
            if scalar != "\n", ControlCharacters.isEscaped(scalar) {
                Issue.record(
                    "control character U+\(String(scalar.value, radix: 16)) at \(index) in:\n\(text)",
                    sourceLocation: sourceLocation)
                return
            }
            index += 1
        }
    }

    /// Three runs of a program whose trace names its span, its file and its
    /// main thread with an escape sequence, and a fourth that failed quoting it.
    static func report(slower: Bool = false) -> MeasurementReport {
        let ms: UInt64 = 1_000_000
        var runs: [RunRecord] = []
        for run in 1...3 {
            let spawn = UInt64(run) * 10_000 * ms
            var events: [TraceEvent] = []
            func mark(_ milestone: Milestone, _ at: UInt64) {
                events.append(
                    TraceEvent(
                        kind: .mark, category: milestone.rawValue, nameID: 0, beginNanoseconds: spawn + at,
                        endNanoseconds: spawn + at))
            }
            mark(.main, 5 * ms)
            mark(.willFinishLaunchingBegin, 6 * ms)
            mark(.willFinishLaunchingEnd, 7 * ms)
            mark(.didFinishLaunchingBegin, 7 * ms)
            let length = (slower ? 90 : 60) * ms + UInt64(run) * ms
            events.append(
                TraceEvent(
                    kind: .span, category: 0, nameID: 2, fileID: 1, line: 12,
                    beginNanoseconds: spawn + 8 * ms, endNanoseconds: spawn + 8 * ms + length))
            let usage = [SpanUsage(eventIndex: UInt32(events.count - 1), usage: ResourceUsage(cpuNanoseconds: length))]
            mark(.didFinishLaunchingEnd, 9 * ms + length)
            mark(.firstFrame, 10 * ms + length)
            let thread = TraceThread(index: 0, osThreadID: 1, name: hostile, isMain: true, events: events, usage: usage)
            let trace = Trace(
                clockSource: .manual, processID: Int32(run), spawn: SpawnTime(nanoseconds: spawn, source: .parent),
                runtimeInitNanoseconds: spawn + 2 * ms, flushNanoseconds: spawn + 20 * ms + length,
                strings: ["", "App/\(hostile).swift", hostile], threads: [thread])
            runs.append(
                RunRecord(
                    index: run, isWarmup: false, status: .ok, timeToReadyMs: Double(10 * ms + length) / 1e6,
                    timeline: LaunchTimeline.build(from: trace).first))
        }
        runs.append(
            RunRecord(
                index: 4, isWarmup: false, status: .failedExit, problem: "exited with code 1 (stderr: \(hostile))",
                exitCode: 1, stderrPath: "/tmp/\(hostile)/stderr.txt"))
        let configuration = MeasureConfiguration(
            commandLine: ["launchprof", "measure", "--", hostile], command: [hostile], runs: 4, warmup: 0, mode: .warm,
            ready: .firstFrame, readyIsDefault: true, timeoutSeconds: 20,
            budget: LaunchBudget(spansMs: [hostile: 1]), budgetSource: BudgetProvenance(origin: .default),
            launchOptions: nil)
        return MeasurementReport(
            name: hostile, createdAt: "2026-11-23T00:00:00Z",
            environment: MachineEnvironment(
                hostname: "host", operatingSystem: "Linux", cpuModel: "cpu", cpuCount: 2, clockSource: "manual"),
            configuration: configuration, runs: runs)
    }
}
