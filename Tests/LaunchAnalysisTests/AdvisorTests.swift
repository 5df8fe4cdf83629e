import LaunchAnalysis
import LaunchTracing
import Testing

/// The advisor over hand-made traces: blocking told from CPU by measurement,
/// and budget findings taken from the verdict's checks.
@Suite("Advisor")
struct AdvisorTests {
    /// The profile of `count` runs of `trace`, judged against `budget`.
    func profile(_ trace: Trace, runs count: Int = 2, budget: LaunchBudget = LaunchBudget()) throws -> LaunchProfile {
        let timeline = try #require(LaunchTimeline.build(from: trace).first)
        let runs = (1...count).map { RunRecord(index: $0, isWarmup: false, status: .ok, timeline: timeline) }
        return LaunchProfile(runs: runs, budget: budget)
    }

    @Test func blockingIsToldFromCPU() throws {
        let findings = try profile(TraceBuilder.launch().trace()).findings
        let network = try #require(findings.first { $0.rule == .mainThreadNetwork })
        #expect(network.span == "Fetch")
        #expect(network.line == 42)
        #expect(network.medianMs == 39)
        #expect(network.runsAppeared == 2 && network.runsTotal == 2)
        #expect(network.recommendation.contains("Fetch (App.swift:42)"))
        let cpu = try #require(findings.first { $0.rule == .deferrableCPUWork && $0.span == "Index" })
        #expect(cpu.medianMs == 40)
        #expect(cpu.line == 77)
        let cpuRules: Set<AdvisorRule> = [.deferrableCPUWork, .slowRequiredWork]
        let blockingRules: Set<AdvisorRule> = [
            .mainThreadDiskIO, .mainThreadNetwork, .mainThreadLockWait, .mainThreadSleep, .mainThreadBlocked,
        ]
        #expect(!findings.contains { $0.span == "Fetch" && cpuRules.contains($0.rule) })
        #expect(!findings.contains { $0.span == "Index" && blockingRules.contains($0.rule) })
    }

    @Test func workTheFirstFrameNeedsIsToBeMovedOrMadeCheaperNotDeferred() throws {
        let findings = try profile(
            TraceBuilder.launch().trace(), runs: 1, budget: LaunchBudget(requiredForFirstFrame: ["Index"])
        ).findings
        #expect(findings.contains { $0.rule == .slowRequiredWork && $0.span == "Index" })
        #expect(!findings.contains { $0.rule == .deferrableCPUWork && $0.span == "Index" })
    }

    @Test func aHookOverItsBudgetIsAFindingFromTheVerdictsCheck() throws {
        let profile = try profile(
            TraceBuilder.launch().trace(), runs: 3, budget: LaunchBudget(hooksMs: [.didFinishLaunching: 50]))
        let check = try #require(profile.verdict.check(.phase(.didFinishLaunching)))
        #expect(!check.passed && check.runsOver == 3 && check.runsMeasured == 3)
        let hook = try #require(profile.findings.first { $0.rule == .hookOverBudget })
        #expect(hook.span == "didFinishLaunching")
        #expect(hook.medianMs == check.medianMs)
        #expect(hook.medianMs == 100)
        #expect(hook.runsAppeared == 3)
        #expect(hook.severity == .critical)
        // Within budget: checked, and no finding.
        let within = try self.profile(
            TraceBuilder.launch().trace(), budget: LaunchBudget(hooksMs: [.didFinishLaunching: 150]))
        #expect(within.verdict.check(.phase(.didFinishLaunching))?.passed == true)
        #expect(!within.findings.contains { $0.rule == .hookOverBudget })
    }

    @Test func aSpanOverItsBudgetNamesItsSourceLine() throws {
        let profile = try profile(TraceBuilder.launch().trace(), budget: LaunchBudget(spansMs: ["Index": 20]))
        #expect(profile.verdict.check(.span("Index"))?.passed == false)
        let span = try #require(profile.findings.first { $0.rule == .spanOverBudget })
        #expect(span.span == "Index")
        #expect(span.line == 77)
        #expect(span.medianMs == 50)
    }

    @Test func aBackgroundLaunchIsJudgedAgainstItsOwnLimit() throws {
        var builder = TraceBuilder.launch()
        builder.metadata[LaunchContract.MetadataKey.launchOptions] = LaunchOptions(reason: .remoteNotification).json
        let profile = try profile(builder.trace(), budget: LaunchBudget(backgroundTimeToFirstFrameMs: 100))
        let check = try #require(profile.verdict.checks.first)
        #expect(check.subject == .phase(.timeToBackgroundReady))
        #expect(check.budgetMs == 100)
        #expect(!profile.verdict.passed)
        let finding = try #require(profile.findings.first { $0.rule == .backgroundLaunchOverLimit })
        #expect(finding.medianMs == 120)
        #expect(finding.budgetShare == 1.2)
    }

    @Test func everyRuleHasAStableIDAndAMeaning() {
        #expect(Set(AdvisorRule.allCases.map(\.id)).count == AdvisorRule.allCases.count)
        #expect(
            AdvisorRule.allCases.allSatisfy { !$0.meaning.isEmpty && $0.id.allSatisfy { $0.isLowercase || $0 == "-" } })
        #expect(AdvisorRule(blockingOn: .disk) == .mainThreadDiskIO)
        #expect(AdvisorRule(blockingOn: .unknown) == .mainThreadBlocked)
    }

    @Test func aBudgetNamingASpanNoRunRecordedIsWarnedAboutWithTheNearestName() throws {
        let budget = LaunchBudget(
            spansMs: ["Indx": 20, "Fetch": 50], requiredForFirstFrame: ["Tokenise", "Nothing like it"])
        let warnings = try #require(try profile(TraceBuilder.launch().trace(), budget: budget).warnings)
        #expect(warnings.contains("the budget's spans names 'Indx', which no run recorded (did you mean 'Index'?)"))
        #expect(
            warnings.contains(
                "the budget's requiredForFirstFrame names 'Tokenise', which no run recorded (did you mean 'Tokenize'?)")
        )
        #expect(warnings.contains("the budget's requiredForFirstFrame names 'Nothing like it', which no run recorded"))
        #expect(!warnings.contains { $0.contains("'Fetch'") })
        #expect(try profile(TraceBuilder.launch().trace()).warnings == nil)
    }

    @Test func workStillRunningAtExitIsWarnedAboutWithItsSite() throws {
        var builder = TraceBuilder.launch()
        builder.events.append(
            TraceEvent(
                kind: .span, category: SpanCategory.compute.rawValue, isOpen: true, nameID: builder.id("Prefetch"),
                fileID: 1, line: 31,
                beginNanoseconds: 115 * TraceBuilder.ms, endNanoseconds: 1_000 * TraceBuilder.ms))
        let warnings = try #require(try profile(builder.trace(), runs: 3).warnings)
        #expect(
            warnings.contains {
                $0.hasPrefix("Prefetch (App.swift:31) was still running when the app exited, in 3 of 3 runs")
            })
    }
}
