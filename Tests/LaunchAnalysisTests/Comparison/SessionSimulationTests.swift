import Foundation
import LaunchAnalysis
import Testing
import _LaunchProfTestSupport

/// The session-level test (``SessionComparison``) in seeded simulations with known
/// truth: sides from different sessions, each session's launch times shifted by a
/// session effect exp(σₛ·Z), σₛ = 0.03 or 0.10 (log time), within a session log-normal
/// at 5 % CV around 400 ms, 20 launches a session, α = 0.01, ε = 5 %.
///
/// Every rate is printed with its Wilson 95 % interval (`swift test --filter
/// SessionSimulation` shows them). A size (an unchanged build, or a true +ε, called a
/// regression; a true +10 % called a pass) passes when it is not significantly above α
/// (the Wilson interval's lower end at or below α); power when the rate is at least 80 %.
/// Seeds: ``GateSimulationTests/seed`` xor each scenario's id (`LAUNCHPROF_TEST_SEED`
/// replays another); 400 trials a scenario.
@Suite("Session-level gate simulations")
struct SessionSimulationTests {
    static let trials = 400
    static let launches = 20
    static let settings = GateSettings(alpha: 0.01, minimumEffectPercent: 5, minimumEffectMs: 5)
    static let epsilon = 1.05

    /// One session's launches: the session effect times the within-session noise.
    static func session(_ scale: Double, sd: Double, using generator: inout SeededGenerator) -> [Double] {
        let effect = exp(sd * LaunchTimes.standardNormal(using: &generator))
        return LaunchTimes.draw(launches, scale: scale * effect, using: &generator)
    }

    /// The gate's verdict on one metric with the given values, sessions, machines and evidence.
    static func verdict(
        base: [[Double]], head: [[Double]], machines: (base: [String], head: [String])? = nil,
        evidence: SessionEvidence = SessionEvidence()
    ) -> MetricComparison {
        let baseSessions = base.enumerated().flatMap { index, values in values.map { _ in "b\(index)" } }
        let headSessions = head.enumerated().flatMap { index, values in values.map { _ in "h\(index)" } }
        let machineInput = machines.map { machines in
            [
                GateDecision.Machines(
                    base: base.enumerated().flatMap { index, values in values.map { _ in machines.base[index] } },
                    head: head.enumerated().flatMap { index, values in values.map { _ in machines.head[index] } })
            ]
        }
        return GateDecision.compare(
            [(name: "timeToReady", gated: true, baseMs: base.flatMap { $0 }, headMs: head.flatMap { $0 })],
            settings: settings,
            alpha: settings.alpha, machines: machineInput,
            sessions: [GateDecision.Sessions(base: baseSessions, head: headSessions)],
            evidence: evidence)[0]
    }

    /// A history of `count` sessions of the base program, as `calibrate` and `--save-baseline` store it.
    static func history(_ sessions: [[Double]]) -> SessionSpread {
        var spread = SessionSpread(metric: "timeToReady", sessionMediansMs: [], source: .sessions)
        for (index, values) in sessions.enumerated() {
            spread = spread.appending(
                SessionSpread.StoredSession(
                    session: "history-\(index)",
                    metrics: ["timeToReady": SessionSpread.StoredSession.Metric(values: values)!]))
        }
        return spread
    }

    enum Form: String, CaseIterable {
        /// Two stored reports, one session each: nothing estimates the sessions' variance.
        case twoFiles
        /// Two sessions a side (`--base-report` twice, `--head-report` twice on one machine).
        case twoSessionsEachSide
        /// A baseline of 5 sessions with their history (`calibrate --rounds 5 --save-baseline`) against a new session.
        case baselineWithHistory
        /// Five machines, one base and one head session each (machine effects σ 0.2).
        case fleetOfFive
    }

    /// The verdict of one trial of `form` with a true ratio `truth` and session SD `sd`.
    static func trial(_ form: Form, truth: Double, sd: Double, using generator: inout SeededGenerator) -> MetricVerdict
    {
        switch form {
        case .twoFiles:
            return verdict(
                base: [session(1, sd: sd, using: &generator)], head: [session(truth, sd: sd, using: &generator)]
            ).verdict
        case .twoSessionsEachSide:
            let base = (0..<2).map { _ in session(1, sd: sd, using: &generator) }
            let head = (0..<2).map { _ in session(truth, sd: sd, using: &generator) }
            return verdict(base: base, head: head).verdict
        case .baselineWithHistory:
            let stored = (0..<5).map { _ in session(1, sd: sd, using: &generator) }
            let head = session(truth, sd: sd, using: &generator)
            // The baseline `calibrate --rounds 5 --save-baseline` stores: its rounds pooled (each a session), and their history.
            return verdict(base: stored, head: [head], evidence: SessionEvidence(history: history(stored))).verdict
        case .fleetOfFive:
            var base: [[Double]] = []
            var head: [[Double]] = []
            for _ in 0..<5 {
                let machine = exp(0.2 * LaunchTimes.standardNormal(using: &generator))
                base.append(session(machine, sd: sd, using: &generator))
                head.append(session(machine * truth, sd: sd, using: &generator))
            }
            let names = (0..<5).map { "m\($0)" }
            return verdict(base: base, head: head, machines: (names, names)).verdict
        }
    }

    static func rate(_ form: Form, truth: Double, sd: Double, id: UInt64, counting wanted: MetricVerdict) async
        -> GateAudit.Rate
    {
        await GateAudit.count(id: id, trials: trials) { generator in
            trial(form, truth: truth, sd: sd, using: &generator) == wanted
        }
    }

    @Test("unchanged and +ε are called a regression, +10 % a pass, in no more than α", arguments: [0.03, 0.10])
    func sizes(sd: Double) async {
        for (index, form) in Form.allCases.enumerated() {
            let id = 0x5E55_0000 + UInt64(index) * 16 + (sd > 0.05 ? 8 : 0)
            let unchanged = await Self.rate(form, truth: 1, sd: sd, id: id, counting: .regression)
            let atEpsilon = await Self.rate(form, truth: Self.epsilon, sd: sd, id: id + 1, counting: .regression)
            let tenPercent = await Self.rate(form, truth: 1.10, sd: sd, id: id + 2, counting: .pass)
            print(
                "session SD \(sd), \(form.rawValue): unchanged → regression \(unchanged); +ε → regression \(atEpsilon); +10 % → pass \(tenPercent)"
            )
            for (what, rate) in [
                ("unchanged → regression", unchanged), ("+ε → regression", atEpsilon), ("+10 % → pass", tenPercent),
            ] {
                #expect(rate.wilson.lower <= Self.settings.alpha, "SD \(sd), \(form.rawValue), \(what): \(rate)")
            }
        }
    }

    @Test func theRuleIsUsefulWithAHistoryOrAFleetAtSessionSDThreePercent() async {
        let history = await Self.rate(
            .baselineWithHistory, truth: 1.30, sd: 0.03, id: 0x5E55_1000, counting: .regression)
        let fleet = await Self.rate(.fleetOfFive, truth: 1.30, sd: 0.03, id: 0x5E55_1001, counting: .regression)
        print(
            "session SD 0.03, +30 %: baseline with a 5-session history → regression \(history); 5-machine fleet → regression \(fleet)"
        )
        #expect(history.value >= 0.8, "\(history)")
        #expect(fleet.value >= 0.8, "\(fleet)")
    }

    /// With one session a side nothing estimates the variance: never a verdict, whatever the shift.
    @Test func oneSessionASideWithoutEvidenceDecidesNothing() {
        var generator = SeededGenerator(seed: 7)
        let base = Self.session(1, sd: 0, using: &generator)
        let head = Self.session(2, sd: 0, using: &generator)
        let metric = Self.verdict(base: [base], head: [head])
        #expect(metric.verdict == .inconclusive)
        #expect(metric.sessions?.source == SessionComparison.Source.none)
        #expect(metric.shiftPercent > 90, "the within-session shift is still shown: \(metric.shiftPercent)")
        // A stated session SD decides, and is recorded.
        let stated = Self.verdict(base: [base], head: [head], evidence: SessionEvidence(statedSD: log(1.03)))
        #expect(stated.verdict == .regression)
        #expect(stated.sessions?.source == .stated && stated.method == .studentT)
        // One session on both sides is today's launch-level test.
        let same = GateDecision.compare(
            [(name: "timeToReady", gated: true, baseMs: base, headMs: head)], settings: Self.settings, alpha: 0.01,
            sessions: [GateDecision.Sessions(base: base.map { _ in "s" }, head: head.map { _ in "s" })])[0]
        #expect(same.sessions == nil && same.verdict == .regression && same.method != .studentT)
    }
}
