import LaunchAnalysis
import LaunchTracing
import Testing

/// Budget resolution: a file, else the app's budget in code, else the default;
/// `--budget-ms` on top; the provenance says which.
@Suite("Budget resolution")
struct BudgetResolutionTests {
    static let app = LaunchBudget(
        timeToFirstFrameMs: 300, hooksMs: [.didFinishLaunching: 150], spansMs: ["DecodeCatalog": 30],
        requiredForFirstFrame: ["ReadCatalog"])
    static let file = LaunchBudget(timeToFirstFrameMs: 500, hooksMs: [.willFinishLaunching: 40])

    @Test func withNothingGivenNothingIsChecked() {
        let (_, provenance) = BudgetResolution().resolve(appBudget: nil)
        #expect(provenance.origin == .none && provenance.isNone)
        #expect(provenance.description.hasPrefix("none (no budget file"))
        // --budget-ms alone: Apple's figures, the first frame from the option.
        let (budget, given) = BudgetResolution(timeToFirstFrameMs: 300).resolve(appBudget: nil)
        #expect(given.origin == .default && !given.isNone && budget.timeToFirstFrameMs == 300)
    }

    @Test func aProgramWithNoBudgetIsMeasuredAndReportedNotFailedAgainstFourHundredMs() {
        // A server ready after 900 ms, with no budget from any source: exit 0, its median in the reason.
        let plan = MeasurementPlan(
            name: "server", commandLine: ["launchprof", "measure"], command: ["server"], runs: 3, warmup: 0,
            mode: .warm, ready: nil, timeoutSeconds: 20, ignoreFailures: false)
        let runs = [900.0, 910, 905].enumerated().map {
            RunRecord(
                index: $0.offset + 1, isWarmup: false, status: .ok, timeToReadyMs: $0.element, timeToExitMs: $0.element)
        }
        let collected = CollectedLaunches(
            runs: runs, appBudget: nil, environment: ReportOutcomeTests.machine, finishedAt: "2026-11-26T00:00:00Z")
        let unbudgeted = MeasurementReport(plan: plan, collected: collected, budget: BudgetResolution())
        #expect(unbudgeted.outcome.status == .pass && unbudgeted.outcome.exitCode.rawValue == 0)
        #expect(unbudgeted.outcome.reason.hasPrefix("timeToReady 905 ms (median); no budget to check"))
        #expect(unbudgeted.profile.verdict.checks.isEmpty)
        // The same launches against --budget-ms 400 fail, as before.
        let budgeted = MeasurementReport(
            plan: plan, collected: collected, budget: BudgetResolution(timeToFirstFrameMs: 400))
        #expect(budgeted.outcome.exitCode.rawValue == 1)
    }

    @Test func theAppsBudgetInCodeBeatsTheDefault() {
        let (budget, provenance) = BudgetResolution().resolve(appBudget: Self.app)
        #expect(budget == Self.app)
        #expect(provenance.origin == .app)
    }

    @Test func aFileBeatsTheAppButKeepsTheAppsEntriesItLacks() {
        let resolution = BudgetResolution(file: .init(path: "launchprof.json", budget: Self.file))
        let (budget, provenance) = resolution.resolve(appBudget: Self.app)
        #expect(budget.timeToFirstFrameMs == 500)
        #expect(budget.hooksMs == [.willFinishLaunching: 40, .didFinishLaunching: 150])
        #expect(budget.spansMs == ["DecodeCatalog": 30])
        #expect(budget.requiredForFirstFrame == ["ReadCatalog"])
        #expect(provenance.origin == .file(path: "launchprof.json"))
        #expect(provenance.appEntriesMerged)
        // Without an app budget, the file is taken as it is.
        let (alone, aloneProvenance) = resolution.resolve(appBudget: nil)
        #expect(alone == Self.file)
        #expect(!aloneProvenance.appEntriesMerged)
    }

    @Test("--budget-ms replaces only the time to first frame, whatever applied", arguments: [nil, app])
    func budgetMsGoesOnTop(app: LaunchBudget?) {
        let (budget, provenance) = BudgetResolution(timeToFirstFrameMs: 120).resolve(appBudget: app)
        #expect(budget.timeToFirstFrameMs == 120)
        #expect(budget.hooksMs == (app?.hooksMs ?? [:]))
        #expect(provenance.timeToFirstFrameFromCommandLine)
        #expect(provenance.description.hasSuffix(", time to first frame from --budget-ms"))
    }

    @Test func aMissingExplicitFileIsAnErrorNamingIt() {
        #expect(
            throws: LaunchBudgetError.badFile(
                path: "/nonexistent/budget.json", problem: "cannot read the file: no such file or directory")
        ) {
            try BudgetResolution(filePath: "/nonexistent/budget.json", timeToFirstFrameMs: nil)
        }
    }
}
