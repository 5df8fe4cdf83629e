import Foundation
import LaunchAnalysis
import Testing

/// The between-session spread a baseline comparison must clear besides ε.
@Suite("Session spread")
struct SessionSpreadTests {
    @Test func theSpreadIsTheWidestRatioBetweenTwoSessions() {
        #expect(abs(SessionSpread(metric: "m", sessionMediansMs: [400, 412, 395], source: .sessions).percent - (412.0 / 395 - 1) * 100) < 1e-9)
        #expect(SessionSpread(metric: "m", sessionMediansMs: [400], source: .sessions).ratio == 0)
        #expect(abs(SessionSpread(metric: "m", sessionMediansMs: [0, .nan, 100, 110], source: .sessions).ratio - 0.1) < 1e-12)
    }

    @Test func theDriftWithinSessionsIsTheWidestOfBlocksOfFive() {
        // The base is flat; the head drifts from 100 to 130 over three blocks (the last, short block joins the one before).
        let base = [Double](repeating: 100, count: 17)
        let head = [Double](repeating: 100, count: 5) + [Double](repeating: 120, count: 5) + [Double](repeating: 130, count: 7)
        let spread = SessionSpread.withinSessions([base, head], metric: "timeToReady")
        #expect(spread.sessionMediansMs == [100, 120, 130])
        #expect(abs(spread.percent - 30) < 1e-9)
        #expect(spread.source == .withinSessions)
        #expect(SessionSpread.withinSessions([[], [5]], metric: "m").ratio == 0)
    }

    @Test func theSpreadRaisesEpsilonAndSoTheGate() {
        var settings = GateSettings()
        #expect(settings.minimumEffectRatio(baseMedianMs: 400) == 0.05)
        settings.betweenSessionPercent = 10
        #expect(abs(settings.minimumEffectRatio(baseMedianMs: 400) - 0.10) < 1e-12)
        #expect(settings.minimumEffectRatio(baseMedianMs: 50) == 0.10, "5 ms of 50 ms, the larger, is not raised")
        #expect(settings.minimumEffectRatio(baseMedianMs: 25) == 0.2)
        #expect(settings.minimumEffectRatio(baseMedianMs: 0, floorShare: 1) == .infinity)
        // A head 12 % slower than a tight base: a regression at ε 5 %, not when a 13 % session spread must be cleared too.
        settings.betweenSessionPercent = 13
        let base: [Double] = (0..<20).map { (i: Int) -> Double in 100 * (1 + 0.01 * sin(Double(i) * 2.399)) }
        let head: [Double] = base.map { $0 * 1.12 }
        let plain = GateDecision.compare([(name: "timeToReady", gated: true, baseMs: base, headMs: head)], settings: GateSettings(), alpha: 0.01)
        let raised = GateDecision.compare([(name: "timeToReady", gated: true, baseMs: base, headMs: head)], settings: settings, alpha: 0.01)
        #expect(plain[0].verdict == .regression)
        #expect(raised[0].verdict == .inconclusive, "not a regression past the spread, and not a pass within ε either")
        #expect(settings.minimumEffectRatio(baseMedianMs: 400, forPass: true) == 0.05)
        // The same program in both sessions still passes: a pass is held to ε itself.
        let same = GateDecision.compare([(name: "timeToReady", gated: true, baseMs: base, headMs: base.reversed())], settings: settings, alpha: 0.01)
        #expect(same[0].verdict == .pass)
        #expect(abs(raised[0].minimumEffectPercent - 13) < 1e-9)
    }
}
