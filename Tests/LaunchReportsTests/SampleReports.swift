import LaunchAnalysis
import LaunchReports

/// Reports made for tests from the committed fixtures.
enum SampleReports {
    /// The instrumented sample app's report (2 runs with timelines).
    static func sample() throws -> MeasurementReport {
        try JSONReport.read(from: FixtureFiles.path("measurement-v1-sample.json"))
    }

    /// The uninstrumented `/bin/true` report (3 runs).
    static func uninstrumented() throws -> MeasurementReport {
        try JSONReport.read(from: FixtureFiles.path("measurement-v1-true.json"))
    }

    /// `/bin/true`'s report with one counted run per value, milliseconds to ready;
    /// a nil value is a run that exited with status 3 before it was ready.
    static func uninstrumented(_ values: [Double?], name: String = "true-v1", ignoreFailures: Bool = false) throws
        -> MeasurementReport
    {
        let template = try uninstrumented()
        var configuration = template.configuration
        configuration.ignoreFailures = ignoreFailures
        let runs = values.enumerated().map { offset, value in
            value.map {
                RunRecord(index: offset + 1, isWarmup: false, status: .ok, timeToReadyMs: $0, timeToExitMs: $0)
            }
                ?? RunRecord(
                    index: offset + 1, isWarmup: false, status: .failedExit, problem: "exited with status 3",
                    exitCode: 3)
        }
        return MeasurementReport(
            name: name, createdAt: template.createdAt, environment: template.environment, configuration: configuration,
            runs: runs)
    }

    /// `head` compared with `base` as stored reports.
    /// `alpha` above the default lets reports of a few runs be compared at all (the gate
    /// refuses sizes at which no difference could reach its level).
    static func comparison(
        _ base: MeasurementReport, _ head: MeasurementReport, failOverBudget: Bool = false, alpha: Double? = nil
    ) -> ComparisonReport {
        var settings = GateSettings()
        if let alpha { settings.alpha = alpha }
        let plan = ComparisonPlan(
            name: "pr-42", source: .storedReports, settings: settings, stages: [20], failOverBudget: failOverBudget)
        // Both sides recorded in one session, so the launch-level test decides (the session-level test has its own tests).
        var base = base
        var head = head
        base.session = base.session ?? "sample-session"
        head.session = head.session ?? "sample-session"
        return ComparisonReport(plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-23T10:00:00Z")
    }

    /// `count` values around `median` with a small deterministic spread (±2 %).
    static func around(_ median: Double, _ count: Int = 20) -> [Double?] {
        (0..<count).map { index -> Double? in
            let step = Double((index * 7) % 11 - 5) / 5
            return median * (1 + 0.02 * step)
        }
    }
}
