import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing
import Testing
import _LaunchProfTestSupport

/// The README's two ways to adopt LaunchProf — spans alone, and the harness — are
/// the files of two executable targets, shown there byte for byte (the files are
/// the source; the README copies them), and both are built and measured here.
@Suite("README: the two adoption examples", .serialized)
struct AdoptionExampleTests {
    static let spansFile = "Sources/ExampleSpansApp/main.swift"
    static let harnessFile = "Sources/ExampleHarnessApp/main.swift"

    /// The README's code block after the line `<!-- example: FILE -->`.
    static func readmeBlock(for file: String) throws -> String {
        let readme = try String(
            contentsOf: BuiltProducts.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let marker = try #require(
            lines.firstIndex { $0 == "<!-- example: \(file) -->" }, "README.md has no marker for \(file)")
        #expect(lines[marker + 1] == "```swift")
        let end = try #require(lines[(marker + 2)...].firstIndex { $0 == "```" })
        return lines[(marker + 2)..<end].joined(separator: "\n") + "\n"
    }

    @Test(arguments: [spansFile, harnessFile])
    func theReadmeShowsTheExampleByteForByte(file: String) throws {
        let source = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent(file), encoding: .utf8)
        #expect(try Self.readmeBlock(for: file) == source, "copy \(file) into README.md's block again")
    }

    /// Measures `product` with a budget file that holds `LoadResources` to
    /// 1 µs, so that span is a finding whose site the test can check.
    func measure(_ product: String, extra: [String] = []) throws -> (BuiltProducts.Result, MeasurementReport) {
        let output = Executables.temporaryDirectory()
        let budget = output.appendingPathComponent("budget.json")
        try Data(#"{"spans": {"LoadResources": 0.001}}"#.utf8).write(to: budget)
        let result = try Executables.run(
            [
                "measure", "--runs", "3", "--warmup", "0", "--quiet", "--name", product, "--output", output.path,
                "--budget", budget.path,
            ] + extra + ["--", Executables.directory.appendingPathComponent(product).path])
        let report = try JSONReport.read(from: output.appendingPathComponent("\(product).json").path)
        return (result, report)
    }

    /// The finding on `LoadResources`, at the line of the call that opened it.
    func expectFinding(on report: MeasurementReport, file: String, call: String) throws {
        let line = try #require(BuiltProducts.line(of: call, in: file))
        let finding = try #require(
            report.profile.findings.first { $0.span == "LoadResources" && $0.rule == .spanOverBudget })
        #expect((finding.file ?? "").hasSuffix(file.split(separator: "/").suffix(2).joined(separator: "/")))
        #expect(finding.line == line)
    }

    @Test func theSpansOnlyExampleIsMeasuredToItsFirstFrame() throws {
        let (result, report) = try measure("ExampleSpansApp")
        #expect(result.status == 1, "over its 1 µs span budget; stderr: \(result.stderr)")
        #expect(report.profile.isInstrumented)
        #expect(report.configuration.ready == .firstFrame)
        #expect(report.runs.allSatisfy { $0.status == .ok })
        #expect(report.profile.statistics(.timeToFirstFrame)?.summary.count == 3)
        let spans = Set(report.runs.compactMap(\.timeline).flatMap(\.mainThreadSpans).map(\.name))
        #expect(spans == ["LoadResources", "BuildIndex"])
        try expectFinding(on: report, file: Self.spansFile, call: #"LaunchTracer.begin("LoadResources""#)
    }

    @Test func theHarnessExampleIsMeasuredToFullyDrawn() throws {
        let (result, report) = try measure("ExampleHarnessApp")
        #expect(result.status == 1, "over its 1 µs span budget; stderr: \(result.stderr)")
        #expect(report.profile.isInstrumented)
        #expect(report.runs.allSatisfy { $0.status == .ok })
        let timelines = report.runs.compactMap(\.timeline)
        #expect(timelines.count == 3)
        for timeline in timelines {
            let frame = try #require(timeline.milestones[.firstFrame])
            let drawn = try #require(timeline.milestones[.fullyDrawn])
            #expect(frame <= drawn)
            let main = Dictionary(timeline.mainThreadSpans.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            // In the hook, before the frame; the two deferred spans after it, the history shown last.
            #expect(main["LoadResources"]?.beforeFirstFrame == true)
            let index = try #require(main["BuildSearchIndex"])
            let history = try #require(main["ShowHistory"])
            #expect(index.beginNanoseconds >= frame && history.beginNanoseconds >= index.endNanoseconds)
            #expect(index.category == .deferred)
            let load = try #require(timeline.otherSpans.first { $0.name == "LoadHistory" })
            #expect(load.category == .background)
        }
        #expect(report.profile.statistics(.timeToFullyDrawn)?.summary.count == 3)
        try expectFinding(on: report, file: Self.harnessFile, call: #"LaunchTracer.measure("LoadResources""#)
    }

    /// Run by hand — LAUNCHPROF_TRACE set, no LAUNCHPROF_EXIT_AFTER_LAUNCH — the
    /// harness app keeps running, and its trace is written when launch ends.
    @Test func theHarnessExampleRunByHandWritesItsTraceWithoutExiting() throws {
        let directory = ScratchDirectory.makeDirectory("lp-by-hand")
        let path = directory.appendingPathComponent("launch.lptrace")
        let process = Process()
        process.executableURL = Executables.directory.appendingPathComponent("ExampleHarnessApp")
        var environment = ProcessInfo.processInfo.environment
        environment["LAUNCHPROF_TRACE"] = path.path
        environment["LAUNCHPROF_EXIT_AFTER_LAUNCH"] = nil
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // SIGKILL: a child of the test runner may start with SIGTERM blocked.
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        try #require(Executables.waitUntilExists(path, seconds: 60), "the app wrote no trace at the end of its launch")
        #expect(process.isRunning, "the app keeps running after its launch")
        let trace = try Trace.read(from: path.path)
        let marks = Set(trace.milestones.map(\.milestone))
        #expect(marks.isSuperset(of: [.firstFrame, .fullyDrawn]))
        #expect(trace.threads.flatMap(\.events).contains { trace.name(of: $0) == "BuildSearchIndex" })
    }

    /// The exit that follows a trace written at the end of launch writes no second one.
    @Test func aLaterExitDoesNotWriteTheTraceAgain() throws {
        let directory = ScratchDirectory.makeDirectory("lp-exit-later")
        let path = directory.appendingPathComponent("launch.lptrace").path
        let result = try Executables.run(
            ["keeps-running"], executable: Executables.fixture,
            environment: ["LAUNCHPROF_TRACE": path, "LAUNCHPROF_EXIT_AFTER_LAUNCH": ""], timeoutSeconds: 60)
        #expect(result.status == 0 && !result.timedOut, "stderr: \(result.stderr)")
        let trace = try Trace.read(from: path)
        let names = Set(trace.threads.flatMap(\.events).filter { $0.kind == .span }.map { trace.name(of: $0) })
        #expect(names.contains("Launch"))
        #expect(!names.contains("AfterTrace"), "the exit wrote the trace a second time")
        #expect(trace.milestones.contains { $0.milestone == .firstFrame })
    }
}
