import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// `launchprof measure` on the bundled sample, run as a user would.
@Suite("measure: the sample app", .serialized)
struct MeasureSampleTests {
    static let sampleData = Executables.temporaryDirectory()

    func measure(_ variant: String, runs: Int = 3) throws -> (Executables.Result, MeasurementReport) {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run(
            [
                "measure", "--sample", variant, "--runs", "\(runs)", "--warmup", "1", "--output", output.path,
                "--budget-ms", "100000",
            ],
            environment: ["LAUNCHPROF_SAMPLE_DIR": Self.sampleData.path])
        let report = try JSONReport.read(from: output.appendingPathComponent("sample-\(variant).json").path)
        return (result, report)
    }

    func finding(_ report: MeasurementReport, rule: AdvisorRule, span: String) -> Finding? {
        report.profile.findings.first { $0.rule == rule && $0.span == span }
    }

    @Test func naiveSampleFindingsPointAtTheRightLines() throws {
        // Five runs: more chances for the sampler to catch the short fsync (see the disk check below).
        let (result, report) = try measure("naive", runs: 5)
        // --budget-ms lifts the frame budget only: the app's own hook budget still
        // holds, and the naive didFinishLaunching is far over its 150 ms.
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let checks = Dictionary(uniqueKeysWithValues: report.profile.verdict.checks.map { ($0.subject, $0.passed) })
        #expect(checks[.phase(.timeToFirstFrame)] == true)
        #expect(checks[.phase(.didFinishLaunching)] == false)
        #expect(report.configuration.budget.hooksMs[.didFinishLaunching] == 150)
        #expect(report.configuration.budgetSource.origin == .app)
        #expect(report.outcome.status == .overBudget && report.outcome.exitCode.rawValue == 1)
        #expect(report.profile.successfulRuns == 5)
        #expect(report.profile.isInstrumented)

        let network = try #require(finding(report, rule: .mainThreadNetwork, span: "FetchRemoteConfig"))
        #expect(
            network.line
                == Executables.line(
                    of: "LaunchTracer.measure(\"FetchRemoteConfig\"", in: "Sources/SampleApp/ReadingListStore.swift"))
        #expect(network.file == "SampleApp/ReadingListStore.swift")
        // The server answers after 60 ms: most of that is the main thread waiting.
        #expect(network.medianMs > 40)
        #expect(network.runsAppeared == 5)

        // The snapshot's fsync blocks the main thread for a few milliseconds. Its blocked
        // time is measured in every run, but what it waited on is known only when a
        // sample lands inside the fsync, which a busy machine can make miss in every
        // run: then the same blocked time is "blocked on something the sampler could not
        // name". Either way the finding must point at the span's line.
        let snapshotLine = Executables.line(
            of: "LaunchTracer.measure(\"PersistCatalogSnapshot\"", in: "Sources/SampleApp/ReadingListStore.swift")
        let disk = report.profile.findings.filter {
            $0.span == "PersistCatalogSnapshot" && [.mainThreadDiskIO, .mainThreadBlocked].contains($0.rule)
        }
        #expect(
            !disk.isEmpty,
            "\(report.profile.findings.filter { $0.span == "PersistCatalogSnapshot" }.map(\.recommendation))")
        for finding in disk {
            #expect(finding.line == snapshotLine)
            #expect(finding.file == "SampleApp/ReadingListStore.swift")
        }

        let lock = try #require(finding(report, rule: .mainThreadLockWait, span: "WaitForCovers"))
        #expect(
            lock.line
                == Executables.line(
                    of: "LaunchTracer.measure(\"WaitForCovers\"", in: "Sources/SampleApp/NaiveAppDelegate.swift"))

        let index = try #require(finding(report, rule: .deferrableCPUWork, span: "BuildSearchIndex"))
        #expect(
            index.line
                == Executables.line(
                    of: "LaunchTracer.begin(\"BuildSearchIndex\"", in: "Sources/SampleApp/SearchIndex.swift"))
        #expect(index.recommendation.contains("deferUntilAfterFirstFrame"))

        // CPU work is never called blocking, and blocking never called CPU work.
        #expect(finding(report, rule: .mainThreadNetwork, span: "BuildSearchIndex") == nil)
        #expect(finding(report, rule: .deferrableCPUWork, span: "FetchRemoteConfig") == nil)

        // The terminal report leads with the verdict and shows the phases.
        #expect(result.stdout.hasPrefix("launchprof measure — sample-naive"))
        #expect(result.stdout.contains("FAIL  didFinishLaunching"))
        #expect(result.stdout.contains("timeToFirstFrame"))
        // The top five findings, whichever they are: their order follows measured costs,
        // which a slower build (a sanitizer's) reorders.
        for finding in report.profile.findings.prefix(5) {
            #expect(result.stdout.contains(" \(finding.rule.id)  \(finding.span)"))
        }
    }

    @Test func optimizedSampleHasNoBlockingFindingsAndAnEarlierFirstFrame() throws {
        let (_, naive) = try measure("naive")
        let (result, optimized) = try measure("optimized")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let blocking = optimized.profile.findings.filter { $0.rule.id.hasPrefix("main-thread-") }
        #expect(blocking.isEmpty, "\(blocking.map(\.recommendation))")
        let naiveFrame = try #require(naive.profile.statistics(.timeToFirstFrame)?.summary.median)
        let optimizedFrame = try #require(optimized.profile.statistics(.timeToFirstFrame)?.summary.median)
        #expect(optimizedFrame < naiveFrame)
        // Extended launch still finishes all the work.
        #expect(optimized.profile.statistics(.timeToFullyDrawn) != nil)
    }

    @Test func aBudgetFileSetsLimitsAndKeepsWhatTheAppSaysItNeeds() throws {
        let output = Executables.temporaryDirectory()
        let file = output.appendingPathComponent("launchprof.json")
        try Data(#"{"timeToFirstFrameMs": 100000, "hooks": {"didFinishLaunching": 100000}}"#.utf8).write(to: file)
        let result = try Executables.run(
            ["measure", "--runs", "2", "--warmup", "1", "--budget", file.path, "--output", output.path],
            environment: ["LAUNCHPROF_SAMPLE_DIR": Self.sampleData.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("sample-naive.json").path)
        // The file's limits hold; the app's list of what the first frame needs still shapes the advice.
        #expect(
            report.profile.verdict.checks.allSatisfy {
                $0.budgetMs == 100000 || $0.subject == .phase(.willFinishLaunching)
            })
        #expect(finding(report, rule: .slowRequiredWork, span: "DecodeCatalog") != nil)
        #expect(finding(report, rule: .deferrableCPUWork, span: "DecodeCatalog") == nil)
    }

    @Test func overBudgetExitsOneAndSaysFail() throws {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run(
            ["measure", "--runs", "2", "--warmup", "0", "--budget-ms", "1", "--output", output.path],
            environment: ["LAUNCHPROF_SAMPLE_DIR": Self.sampleData.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL"))
        let report = try JSONReport.read(from: output.appendingPathComponent("sample-naive.json").path)
        #expect(report.profile.verdict.passed == false)
        #expect(report.schemaVersion == MeasurementReport.currentSchemaVersion)
        #expect(report.outcome.status == .overBudget)
        #expect(report.outcome.exitCode.rawValue == result.status)
        #expect(report.runs.filter { !$0.isWarmup }.count == 2)
        // The JSON says what it is, and holds the budget as an object.
        let object = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: output.appendingPathComponent("sample-naive.json"))) as? [String: Any])
        #expect(object["kind"] as? String == "measurement")
        #expect((object["configuration"] as? [String: Any])?["budget"] is [String: Any])
    }
}
