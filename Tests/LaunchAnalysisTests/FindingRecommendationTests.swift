import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

/// A finding's advice is worded in one place from values the report keeps
/// (``Finding/wordedRecommendation``); the prose a report stores is those words,
/// and an older report's prose is read as it was written.
@Suite("Advisor: recommendations worded from values")
struct FindingRecommendationTests {
    func profile(_ trace: Trace, runs count: Int = 3, budget: LaunchBudget) throws -> LaunchProfile {
        let timeline = try #require(LaunchTimeline.build(from: trace).first)
        let runs = (1...count).map { RunRecord(index: $0, isWarmup: false, status: .ok, timeline: timeline) }
        return LaunchProfile(runs: runs, budget: budget)
    }

    /// Findings of every kind the hand-made launch gives: blocking, CPU work, a hook
    /// and a span over budget (and, through a background launch, its limit).
    func findings() throws -> [Finding] {
        let budget = LaunchBudget(hooksMs: [.didFinishLaunching: 50], spansMs: ["Index": 20])
        var background = TraceBuilder.launch()
        background.metadata[LaunchContract.MetadataKey.launchOptions] = LaunchOptions(reason: .remoteNotification).json
        return try profile(TraceBuilder.launch().trace(), budget: budget).findings
            + profile(background.trace(), budget: LaunchBudget(backgroundTimeToFirstFrameMs: 100)).findings
    }

    @Test func theStoredWordsAreTheWordsOfTheValuesAndSurviveTheJSON() throws {
        let findings = try findings()
        let rules = Set(findings.map(\.rule))
        #expect(
            rules.isSuperset(of: [
                .mainThreadNetwork, .deferrableCPUWork, .hookOverBudget, .spanOverBudget, .backgroundLaunchOverLimit,
            ]),
            "\(rules)")
        for finding in findings {
            #expect(!finding.recommendation.isEmpty, "\(finding.rule)")
            #expect(finding.wordedRecommendation == finding.recommendation, "\(finding.rule)")
        }
        let hook = try #require(findings.first { $0.rule == .hookOverBudget })
        #expect(hook.budgetMs == 50 && hook.runsMeasured == 3)
        #expect(hook.recommendation.contains("against its budget of 50"))
        let read = try JSONDecoder().decode([Finding].self, from: JSONEncoder().encode(findings))
        #expect(read == findings)
        // Worded again from what was read: the values alone carry the advice.
        for var finding in read {
            let words = finding.recommendation
            finding.recommendation = ""
            #expect(finding.wordedRecommendation == words, "\(finding.rule)")
        }
    }

    @Test func anOlderFindingWithoutTheValuesKeepsItsWordsAsWritten() throws {
        let hook = try #require(try findings().first { $0.rule == .hookOverBudget })
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(hook)) as? [String: Any])
        object["budgetMs"] = nil
        object["runsMeasured"] = nil
        object["recommendation"] = "as an older launchprof worded it"
        let older = try JSONDecoder().decode(Finding.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(older.recommendation == "as an older launchprof worded it")
        #expect(older.wordedRecommendation == nil)
    }
}
