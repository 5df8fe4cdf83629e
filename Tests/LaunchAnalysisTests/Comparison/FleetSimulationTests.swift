import Foundation
import LaunchAnalysis
import Testing
import _LaunchProfTestSupport

/// The fleet gate's false-alarm and detection rates on synthetic launches from
/// three machines of different speeds, measured unevenly on the two sides.
///
/// Machines run at speeds 1.0, 1.1 and 1.3 (each launch's median is 400 ms × its
/// machine's speed), 5 % noise as in ``GateSimulationTests``; the base side has
/// 20, 10 and 5 launches on them, the head side 5, 10 and 20, so the head's
/// launches come mostly from the slow machine. Each trial is judged twice at the
/// defaults (α = 0.01, ε 5 % / 5 ms, one look): by the fleet gate (within each
/// machine, van Elteren, its inverted interval) and by a naive gate pooling every
/// launch as if from one machine. Both rates are printed. The seed is fixed
/// (`LAUNCHPROF_TEST_SEED` replays another); each trial draws its own seed.
@Suite("Fleet gate simulation")
struct FleetSimulationTests {
    static let speeds = [1.0, 1.1, 1.3]
    static let baseCounts = [20, 10, 5]
    static let headCounts = [5, 10, 20]

    @Test(
        "no real change: the fleet gate calls a regression in at most 1 % of 1,000 trials (naive pooling far more often)"
    )
    func noChange() async {
        let result = await Self.simulate(id: 11, trials: 1_000, slowdown: 1)
        #expect(result.fleet.regressionRate <= 0.01, "\(result)")
        #expect(
            result.naive.regressionRate >= 0.5,
            "pooling machines was expected to mistake the slow machine for a regression: \(result)")
    }

    /// Found means van Elteren's test rejects "no change" (one-sided p < α): the
    /// stratified test's power. The gate at the default ε of 5 % tests "more than
    /// +5 %" at α = 1 % (issue 21): with these counts the shift's standard error is
    /// about 1.4 % of log time, so a true +10 % (4.6 % of log time above ε, 3.3
    /// standard errors) clears it in about Φ(3.3 − 2.33) ≈ 83 % of trials. That
    /// rate is printed and held to at least 75 %.
    @Test(
        "a 10 % slowdown on every machine: van Elteren finds it in at least 90 % of 1,000 trials, the gate at ε 5 % calls it a regression in at least 75 %"
    )
    func tenPercentSlowdown() async {
        let result = await Self.simulate(id: 12, trials: 1_000, slowdown: 1.10)
        #expect(result.fleetSignificant >= 0.90, "\(result)")
        #expect(result.fleet.regressionRate >= 0.75, "at the default minimum effect: \(result)")
    }

    // MARK: Simulation

    struct Rates: CustomStringConvertible {
        var trials: Int
        var verdicts: [MetricVerdict: Int] = [:]

        var regressionRate: Double { Double(verdicts[.regression, default: 0]) / Double(trials) }

        var description: String {
            let counts = MetricVerdict.allCases.map { "\($0.rawValue) \(verdicts[$0, default: 0])" }.joined(
                separator: ", ")
            return "regression rate \(regressionRate) (\(counts))"
        }
    }

    struct Result: CustomStringConvertible {
        var fleet: Rates
        var naive: Rates
        /// The share of trials in which van Elteren's one-sided p ("head slower") was below α.
        var fleetSignificant = 0.0
        var seconds = 0.0
        var seed: UInt64

        var description: String {
            "fleet gate: \(fleet), van Elteren p < α in \(fleetSignificant); naive pooled Mann–Whitney: \(naive); "
                + "\(String(format: "%.2f", seconds)) s; seed \(seed) — replay with \(SeededGenerator.seedVariable)=\(seed)"
        }
    }

    /// Runs `trials` comparisons judged at the default settings, and counts the verdicts.
    static func simulate(id: UInt64, trials: Int, slowdown: Double) async -> Result {
        let start = Date()
        let seed = GateSimulationTests.seed
        var master = SeededGenerator(seed: seed ^ (id &* 0x9E37_79B9_7F4A_7C15))
        let seeds = (0..<trials).map { _ in master.next() }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        typealias Counts = (fleet: [MetricVerdict: Int], naive: [MetricVerdict: Int], significant: Int)
        let partials = await withTaskGroup(of: Counts.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var counts: Counts = ([:], [:], 0)
                    for trial in stride(from: worker, to: trials, by: workers) {
                        let verdicts = runTrial(seed: seeds[trial], slowdown: slowdown)
                        counts.fleet[verdicts.fleet, default: 0] += 1
                        counts.naive[verdicts.naive, default: 0] += 1
                        if verdicts.significant { counts.significant += 1 }
                    }
                    return counts
                }
            }
            var all: [Counts] = []
            for await partial in group { all.append(partial) }
            return all
        }
        var result = Result(fleet: Rates(trials: trials), naive: Rates(trials: trials), seed: seed)
        for partial in partials {
            result.fleet.verdicts.merge(partial.fleet, uniquingKeysWith: +)
            result.naive.verdicts.merge(partial.naive, uniquingKeysWith: +)
            result.fleetSignificant += Double(partial.significant) / Double(trials)
        }
        result.seconds = Date().timeIntervalSince(start)
        print(
            "fleet gate simulation \(id) (speeds \(speeds), base \(baseCounts), head \(headCounts), slowdown \(slowdown), "
                + "defaults): \(result)")
        return result
    }

    /// One comparison of three machines' launches, judged by the fleet gate and by the naive one.
    static func runTrial(seed: UInt64, slowdown: Double) -> (
        fleet: MetricVerdict, naive: MetricVerdict, significant: Bool
    ) {
        var generator = SeededGenerator(seed: seed)
        var baseMs: [Double] = []
        var headMs: [Double] = []
        var machines = GateDecision.Machines(base: [], head: [])
        for (machine, speed) in speeds.enumerated() {
            let base = LaunchTimes.draw(baseCounts[machine], scale: speed, using: &generator)
            let head = LaunchTimes.draw(headCounts[machine], scale: speed * slowdown, using: &generator)
            baseMs += base
            headMs += head
            machines.base += Array(repeating: "machine-\(machine)", count: base.count)
            machines.head += Array(repeating: "machine-\(machine)", count: head.count)
        }
        let metrics = [(name: "timeToFirstFrame", gated: true, baseMs: baseMs, headMs: headMs)]
        let settings = GateSettings()
        let fleet = GateDecision.compare(metrics, settings: settings, alpha: settings.alpha, machines: [machines])
        let naive = GateDecision.compare(metrics, settings: settings, alpha: settings.alpha)
        return (
            GateDecision.overall(fleet, primary: "timeToFirstFrame"),
            GateDecision.overall(naive, primary: "timeToFirstFrame"),
            fleet[0].slowerPValue < settings.alpha
        )
    }
}
