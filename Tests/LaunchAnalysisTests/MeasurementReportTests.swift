import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

/// The report document: assembled once, written as typed JSON objects.
@Suite("Measurement report")
struct MeasurementReportTests {
    /// An instrumented report: two runs of the hand-made launch.
    static func instrumented(
        ready: ReadyCondition? = nil, options: LaunchOptions? = nil, trace: Trace = TraceBuilder.launch().trace()
    ) throws -> MeasurementReport {
        let timeline = try #require(LaunchTimeline.build(from: trace).first)
        let runs = (1...2).map {
            RunRecord(index: $0, isWarmup: false, status: .ok, timeToReadyMs: 121, timeline: timeline)
        }
        let plan = MeasurementPlan(
            name: "app", commandLine: ["launchprof", "measure", "--", "app"], command: ["app"], runs: 2, warmup: 0,
            mode: .warm, ready: ready, timeoutSeconds: 20, launchOptions: options)
        let collected = CollectedLaunches(
            runs: runs, appBudget: LaunchBudget(hooksMs: [.didFinishLaunching: 150]),
            environment: ReportOutcomeTests.machine,
            finishedAt: "2026-11-23T10:00:00Z")
        return MeasurementReport(plan: plan, collected: collected, budget: BudgetResolution(timeToFirstFrameMs: 300))
    }

    @Test func theDefaultReadyConditionFollowsWhatTheRunsShowed() throws {
        let report = try Self.instrumented()
        #expect(report.configuration.ready == .firstFrame)
        #expect(report.configuration.readyIsDefault)
        #expect(report.readyLabel == "first-frame")
        let uninstrumented = ReportOutcomeTests.report([100])
        #expect(uninstrumented.configuration.ready == .exit)
        #expect(uninstrumented.readyLabel == "exit")
        #expect(ReportOutcomeTests.report([]).readyLabel == "first-frame (exit if uninstrumented)")
        let given = try Self.instrumented(ready: .port(8080))
        #expect(given.configuration.ready == .port(8080))
        #expect(!given.configuration.readyIsDefault)
    }

    @Test func redactedReportsKeepOnlyTheSourceFilesName() throws {
        var report = try Self.instrumented()
        report.runs[0].timeline?.filePaths = ["App/Boot.swift": "/home/ana/work/app/Sources/App/Boot.swift"]
        report.profile.findings = report.profile.findings.map { finding in
            var finding = finding
            finding.filePath = "/home/ana/work/app/Sources/App/Boot.swift"
            return finding
        }
        #expect(!report.profile.findings.isEmpty)
        let redacted = report.redactingPaths()
        #expect(redacted.runs[0].timeline?.filePaths == ["App/Boot.swift": "Boot.swift"])
        #expect(redacted.profile.findings.allSatisfy { $0.filePath == "Boot.swift" })
        #expect(redacted.runs[1].timeline?.filePaths == report.runs[1].timeline?.filePaths)
    }

    @Test func theBudgetIsResolvedOnceWithItsProvenance() throws {
        let report = try Self.instrumented()
        #expect(report.configuration.budget.timeToFirstFrameMs == 300)
        #expect(report.configuration.budget.hooksMs == [.didFinishLaunching: 150])
        #expect(report.configuration.budgetSource.origin == .app)
        #expect(report.configuration.budgetSource.timeToFirstFrameFromCommandLine)
        #expect(report.profile.verdict.check(.phase(.timeToFirstFrame))?.budgetMs == 300)
    }

    @Test func theJSONHoldsObjectsNeverJSONText() throws {
        let report = try Self.instrumented(
            ready: .port(8080), options: LaunchOptions(reason: .url, url: "app://book/1"))
        let data = try JSONEncoder().encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["kind"] as? String == "measurement")
        #expect(object["schemaVersion"] as? Int == MeasurementReport.currentSchemaVersion)
        let outcome = try #require(object["outcome"] as? [String: Any])
        #expect(outcome["status"] as? String == report.outcome.status.rawValue)
        #expect(outcome["exitCode"] as? Int == Int(report.outcome.exitCode.rawValue))
        let configuration = try #require(object["configuration"] as? [String: Any])
        #expect(configuration["budget"] is [String: Any])
        #expect(configuration["launchOptions"] as? [String: Any] != nil)
        #expect((configuration["ready"] as? [String: Any])?["port"] as? Int == 8080)
        #expect((configuration["budgetSource"] as? [String: Any])?["origin"] as? String == "app")
        // No string anywhere in the document is itself a JSON object or array.
        func strings(_ value: Any) -> [String] {
            switch value {
            case let text as String: return [text]
            case let array as [Any]: return array.flatMap(strings)
            case let dictionary as [String: Any]: return dictionary.values.flatMap(strings)
            default: return []
            }
        }
        #expect(!strings(object).contains { $0.hasPrefix("{") || $0.hasPrefix("[") })
    }

    @Test func aReportRoundTrips() throws {
        let report = try Self.instrumented(
            ready: .stdout(pattern: "ready \\d+"), options: LaunchOptions(reason: .location))
        let decoded = try JSONDecoder().decode(MeasurementReport.self, from: JSONEncoder().encode(report))
        #expect(decoded == report)
    }
}
