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

    @Test func withNothingGivenTheDefaultApplies() {
        let (budget, provenance) = BudgetResolution().resolve(appBudget: nil)
        #expect(budget == .default)
        #expect(provenance.origin == .default)
        #expect(provenance.description == "default (400 ms, Apple's figure)")
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
        #expect(throws: LaunchBudgetError.badFile(path: "/nonexistent/budget.json", problem: "cannot read the file: no such file or directory")) {
            try BudgetResolution(filePath: "/nonexistent/budget.json", timeToFirstFrameMs: nil)
        }
    }
}
