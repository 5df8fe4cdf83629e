import Foundation
import LaunchAnalysis
import LaunchMeasure
import Testing
import _LaunchProfTestSupport

/// Interleaved comparison sessions on a scripted platform: no process is started.
@Suite("Compare session (scripted platform)")
struct CompareSessionTests {
    let scratch = ScratchDirectory("compare-session")

    /// A stop rule that records what it was shown and stops at `stopAt`.
    struct RecordingRule: StopRule {
        var stopAt: Int?
        var seen: [(stage: Int, base: Int, head: Int)] = []
        mutating func stop(afterStage stage: Int, base: CollectedLaunches, head: CollectedLaunches) -> Bool {
            seen.append((stage, base.runs.filter { !$0.isWarmup }.count, head.runs.filter { !$0.isWarmup }.count))
            return stage == stopAt
        }
    }

    func compare(
        _ script: [ScriptedPlatform.Launch], warmup: Int = 0, stages: [Int], rule: inout RecordingRule
    ) throws -> (ComparedLaunches, ScriptedPlatform) {
        let folder = try RunsFolder(replacing: scratch.file("compare.runs"))
        let base = scriptedRequest(
            runs: stages.last!, warmup: warmup, executable: "base", folder: try folder.root.makeSubdirectory("base"))
        let head = scriptedRequest(
            runs: stages.last!, warmup: warmup, executable: "head", folder: try folder.root.makeSubdirectory("head"))
        let platform = ScriptedPlatform(script)
        let compared = try CompareSession.run(
            base: base, head: head, stages: stages, progress: nil, rule: &rule, platform: platform)
        return (compared, platform)
    }

    @Test func warmUpsAlternateThenCountedRunsComeInABBAOrder() throws {
        var rule = RecordingRule()
        let (compared, platform) = try compare(Array(repeating: .ok(), count: 10), warmup: 1, stages: [4], rule: &rule)
        #expect(
            platform.executables == ["base", "head", "base", "head", "head", "base", "base", "head", "head", "base"])
        #expect(compared.base.runs.map(\.index) == [0, 1, 2, 3, 4])
        #expect(compared.head.runs.map(\.index) == [0, 1, 2, 3, 4])
        #expect(compared.stagesRun == 1)
    }

    @Test func theRuleIsAskedAtEachStageAndCanStopEarly() throws {
        var rule = RecordingRule(stopAt: 1)
        let (compared, platform) = try compare(Array(repeating: .ok(), count: 12), stages: [2, 4, 6], rule: &rule)
        #expect(rule.seen.map(\.stage) == [0, 1])
        #expect(rule.seen.map(\.base) == [2, 4] && rule.seen.map(\.head) == [2, 4])
        #expect(compared.stagesRun == 2)
        #expect(platform.requests.count == 8)
    }

    @Test func aSideThatCannotStartLaterEndsTheSessionNamingTheSide() throws {
        var rule = RecordingRule()
        let script: [ScriptedPlatform.Launch] = [
            .ok(), .ok(), ScriptedPlatform.Launch(error: .spawnFailed(path: "head", code: 2)),
        ]
        let (compared, _) = try compare(script, stages: [4], rule: &rule)
        #expect(compared.base.runs.count == 1 && compared.head.runs.count == 1)
        #expect(compared.base.stopReason?.hasPrefix("head run 2 of 4 could not be started") == true)
        #expect(
            compared.head.stopReason?.hasPrefix("run 2 of 4 could not be started") == true,
            "the side that stopped keeps its own reason")
        #expect(compared.base.stop?.side == .head && compared.head.stop?.side == nil)
        #expect(compared.base.stop?.launch == .run(2, of: 4) && compared.base.stop?.kind == .couldNotStart)
        #expect(rule.seen.isEmpty, "no stage was completed")
        #expect(compared.stagesRun == 0)
    }
}
