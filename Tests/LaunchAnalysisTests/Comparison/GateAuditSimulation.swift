import Foundation
import LaunchAnalysis
import _LaunchProfTestSupport

/// The audit's simulations (issue 21): launch times with known truth, judged by
/// the gate, with every rate and its Wilson 95 % interval.
///
/// Launch times are log-normal around 400 ms (σ of the log = √ln(1 + CV²)); a
/// "mixture" draws each launch at twice the CV with probability 10 %; a bimodal
/// head draws half its launches `+bimodalShift` slower. Normals come from
/// Box–Muller on ``SeededGenerator`` (SplitMix64): each scenario has its own
/// master seed (``GateSimulationTests/seed`` xor the scenario's id), each trial its
/// own seed from that master, so rates do not depend on the order trials run in.
enum GateAudit {
    /// A rate with its Wilson score 95 % interval.
    struct Rate: CustomStringConvertible {
        var count: Int
        var trials: Int

        var value: Double { Double(count) / Double(max(trials, 1)) }

        /// The Wilson score interval at 95 % (z = 1.959964).
        var wilson: (lower: Double, upper: Double) {
            let z = 1.959_963_984_540_054
            let n = Double(trials)
            let p = value
            guard n > 0 else { return (0, 1) }
            let centre = (p + z * z / (2 * n)) / (1 + z * z / n)
            let half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
            return (max(0, centre - half), min(1, centre + half))
        }

        var description: String {
            let (lower, upper) = wilson
            return String(
                format: "%d/%d = %.1f %% (Wilson 95 %% %.1f–%.1f %%)", count, trials, 100 * value, 100 * lower,
                100 * upper)
        }
    }

    /// How launch times are drawn.
    struct Noise: Sendable {
        var coefficientOfVariation: Double
        /// Probability that a launch is drawn at twice the CV (the "10 %-doubled mixture").
        var doubledShare = 0.0

        static func cv(_ value: Double) -> Noise { Noise(coefficientOfVariation: value) }

        var sigma: Double { log(1 + coefficientOfVariation * coefficientOfVariation).squareRoot() }
        var doubledSigma: Double { log(1 + 4 * coefficientOfVariation * coefficientOfVariation).squareRoot() }

        func draw(_ count: Int, scale: Double, medianMs: Double = 400, using generator: inout SeededGenerator)
            -> [Double]
        {
            (0..<count).map { _ in
                let uniform = Double(generator.next() >> 11) * 0x1p-53
                let s = uniform < doubledShare ? doubledSigma : sigma
                return medianMs * scale * exp(s * LaunchTimes.standardNormal(using: &generator))
            }
        }
    }

    /// Runs `trials` trials on every core, each with its own seed, and counts how many `trial` returns true for.
    static func count(id: UInt64, trials: Int, _ trial: @escaping @Sendable (inout SeededGenerator) -> Bool) async
        -> Rate
    {
        await counts(id: id, trials: trials, rules: 1) { generator in [trial(&generator)] }[0]
    }

    /// Like ``count(id:trials:_:)`` for `rules` rules judged on the same launches:
    /// `trial` returns one answer per rule, and each rule gets its rate.
    static func counts(
        id: UInt64, trials: Int, rules: Int, _ trial: @escaping @Sendable (inout SeededGenerator) -> [Bool]
    ) async -> [Rate] {
        var master = SeededGenerator(seed: GateSimulationTests.seed ^ (id &* 0x9E37_79B9_7F4A_7C15))
        let seeds = (0..<trials).map { _ in master.next() }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let totals = await withTaskGroup(of: [Int].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var hits = [Int](repeating: 0, count: rules)
                    for index in stride(from: worker, to: trials, by: workers) {
                        var generator = SeededGenerator(seed: seeds[index])
                        for (rule, hit) in trial(&generator).prefix(rules).enumerated() where hit { hits[rule] += 1 }
                    }
                    return hits
                }
            }
            var sum = [Int](repeating: 0, count: rules)
            for await hits in group { sum = zip(sum, hits).map(+) }
            return sum
        }
        return totals.map { Rate(count: $0, trials: trials) }
    }

    /// One staged comparison of `metrics` gated metrics, each with base drawn at
    /// `noise` and head at `noise` scaled by `slowdown` (each metric its own draw);
    /// the final overall verdict.
    static func stagedVerdict(
        stages: [Int], metrics: Int = 1, slowdown: Double, noise: Noise, settings: GateSettings = GateSettings(),
        using generator: inout SeededGenerator
    ) -> MetricVerdict {
        let most = stages.last ?? 0
        let names = (0..<metrics).map { $0 == 0 ? "timeToFirstFrame" : "phase:m\($0)" }
        let data = names.map { _ in
            (
                base: noise.draw(most, scale: 1, using: &generator),
                head: noise.draw(most, scale: slowdown, using: &generator)
            )
        }
        let gate = StagedGate(stages: stages, settings: settings)
        for (index, count) in stages.enumerated() {
            let input = zip(names, data).map { name, sides in
                (
                    name: name, gated: true, baseMs: Array(sides.base.prefix(count)),
                    headMs: Array(sides.head.prefix(count))
                )
            }
            let look = gate.look(index, metrics: input, primary: "timeToFirstFrame")
            if look.stop { return look.verdict }
        }
        return .inconclusive
    }
}
