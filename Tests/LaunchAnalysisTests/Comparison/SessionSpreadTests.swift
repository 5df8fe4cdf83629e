import Foundation
import LaunchAnalysis
import Testing

/// The between-session spread a baseline comparison must clear besides ε.
@Suite("Session spread")
struct SessionSpreadTests {
    @Test func theSpreadIsTheWidestRatioBetweenTwoSessions() {
        #expect(
            abs(
                SessionSpread(metric: "m", sessionMediansMs: [400, 412, 395], source: .sessions).percent
                    - (412.0 / 395 - 1) * 100) < 1e-9)
        #expect(SessionSpread(metric: "m", sessionMediansMs: [400], source: .sessions).ratio == 0)
        #expect(
            abs(SessionSpread(metric: "m", sessionMediansMs: [0, .nan, 100, 110], source: .sessions).ratio - 0.1)
                < 1e-12)
    }

    @Test func theDriftWithinSessionsIsTheWidestOfBlocksOfFive() {
        // The base is flat; the head drifts from 100 to 130 over three blocks (the last, short block joins the one before).
        let base = [Double](repeating: 100, count: 17)
        let head =
            [Double](repeating: 100, count: 5) + [Double](repeating: 120, count: 5) + [Double](repeating: 130, count: 7)
        let spread = SessionSpread.withinSessions([base, head], metric: "timeToReady")
        #expect(spread.sessionMediansMs == [100, 120, 130])
        #expect(abs(spread.percent - 30) < 1e-9)
        #expect(spread.source == .withinSessions)
        #expect(SessionSpread.withinSessions([[], [5]], metric: "m").ratio == 0)
    }

    /// A version-1 file's medians are a history of separate sessions; a version-2 file's
    /// history holds every metric, and `appending` keeps the medians in step.
    @Test func theHistoryOfAMetricIsItsStoredSessions() {
        let v1 = SessionSpread(metric: "timeToReady", sessionMediansMs: [100, 104, 98], source: .sessions)
        #expect(v1.sessions(of: "timeToReady").map(\.medianMs) == [100, 104, 98])
        #expect(v1.sessions(of: "cpuTime").isEmpty)
        #expect(
            SessionSpread(metric: "m", sessionMediansMs: [1, 2], source: .withinSessions).sessions(of: "m").isEmpty)
        let session = SessionSpread.StoredSession(
            session: "s4",
            metrics: [
                "timeToReady": .init(medianMs: 101, launches: 20, medianVariance: 1e-4),
                "cpuTime": .init(medianMs: 50, launches: 20, medianVariance: 2e-4),
            ])
        let v2 = v1.appending(session)
        #expect(v2.sessionMediansMs == [100, 104, 98, 101])
        #expect(
            v2.sessions(of: "cpuTime").map(\.medianMs) == [50],
            "a history holds only the sessions that recorded the metric")
        #expect(v2.problem == nil)
        var bad = v2
        bad.history![0].metrics["cpuTime"]!.medianVariance = -1
        #expect(bad.problem?.contains("medianVariance") == true)
    }
}
