import Foundation
import LaunchAnalysis
import Testing
import _LaunchProfTestSupport

/// The gate's false-alarm and detection rates on synthetic launch times.
///
/// Launch times are log-normal with a median of 400 ms and a 5 % coefficient of
/// variation (σ of the log = √ln(1 + 0.05²)), head's scaled by a factor; normals
/// come from Box–Muller on `SeededGenerator` (SplitMix64). The seed is fixed so
/// the rates are the same on every run (they are printed); set
/// `LAUNCHPROF_TEST_SEED` to try another. Each trial draws its own seed from the
/// master generator, so trials are independent of the order they run in. In a
/// staged trial the data grows: the first 20 launches a side are the first 20 of
/// the 40 used at the second look.
@Suite("Gate simulation")
struct GateSimulationTests {
    static let seed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment[SeededGenerator.seedVariable], let seed = UInt64(text) {
            return seed
        }
        return 20_240_611
    }()

    static let noEffectFloor = GateSettings(alpha: 0.01, minimumEffectPercent: 0, minimumEffectMs: 0)

    /// (a) Same build on both sides, defaults, 20 launches a side, one look.
    @Test("A/A at the defaults: regression in at most 1 % of 1,000 trials")
    func aaAtDefaults() async {
        let result = await Self.simulate(id: 1, trials: 1_000, stages: [20], settings: GateSettings(), slowdown: 1)
        #expect(result.regressionRate <= 0.01, "\(result)")
    }

    /// (b) Head 15 % slower, 20 launches a side, one look.
    @Test("a 15 % slowdown is found in at least 90 % of 1,000 trials with 20 launches a side")
    func fifteenPercentAtTwenty() async {
        let result = await Self.simulate(id: 2, trials: 1_000, stages: [20], settings: GateSettings(), slowdown: 1.15)
        #expect(result.regressionRate >= 0.90, "\(result)")
    }

    /// (c) Head 10 % slower, looks after 20, 40 and 60 launches a side.
    @Test("a 10 % slowdown is found in at least 90 % of 1,000 trials with stages 20, 40, 60")
    func tenPercentStaged() async {
        let result = await Self.simulate(
            id: 3, trials: 1_000, stages: [20, 40, 60], settings: GateSettings(), slowdown: 1.10)
        #expect(result.regressionRate >= 0.90, "\(result)")
    }

    /// (d) With ε = 0 the gate is the test itself: A/A rejects at about α.
    @Test("with ε = 0, A/A is rejected in α ± 50 % of 10,000 trials at one look")
    func aaWithoutEffectFloor() async {
        let result = await Self.simulate(id: 4, trials: 10_000, stages: [20], settings: Self.noEffectFloor, slowdown: 1)
        #expect((0.005...0.015).contains(result.regressionRate), "\(result)")
    }

    /// (e) Three looks, α spent as α·t³ (α/27, 7α/27, 19α/27): the false-alarm rate over all looks stays at most α.
    @Test("with ε = 0 and stages 20, 40, 60, A/A is rejected in at most α of 10,000 trials")
    func aaStagedWithoutEffectFloor() async {
        let result = await Self.simulate(
            id: 5, trials: 10_000, stages: [20, 40, 60], settings: Self.noEffectFloor, slowdown: 1)
        #expect(result.regressionRate <= 0.01, "\(result)")
    }

    // MARK: Simulation

    struct Result: CustomStringConvertible {
        var trials: Int
        var verdicts: [MetricVerdict: Int] = [:]
        var looks = 0
        var seconds = 0.0
        var seed: UInt64

        var regressionRate: Double { Double(verdicts[.regression, default: 0]) / Double(trials) }

        var description: String {
            let counts = MetricVerdict.allCases.map { "\($0.rawValue) \(verdicts[$0, default: 0])" }.joined(
                separator: ", ")
            return
                "regression rate \(regressionRate) over \(trials) trials (\(counts); mean looks \(Double(looks) / Double(trials))); "
                + "\(String(format: "%.2f", seconds)) s; seed \(seed) — replay with \(SeededGenerator.seedVariable)=\(seed)"
        }
    }

    /// Runs `trials` staged comparisons of base against head = base's distribution
    /// scaled by `slowdown`, and counts the final verdicts. `id` makes each
    /// scenario's data its own.
    static func simulate(id: UInt64, trials: Int, stages: [Int], settings: GateSettings, slowdown: Double) async
        -> Result
    {
        let start = Date()
        var master = SeededGenerator(seed: seed ^ (id &* 0x9E37_79B9_7F4A_7C15))
        let seeds = (0..<trials).map { _ in master.next() }
        let gate = StagedGate(stages: stages, settings: settings)
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let partials = await withTaskGroup(of: (verdicts: [MetricVerdict: Int], looks: Int).self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var verdicts: [MetricVerdict: Int] = [:]
                    var looks = 0
                    for trial in stride(from: worker, to: trials, by: workers) {
                        let outcome = runTrial(gate: gate, seed: seeds[trial], slowdown: slowdown)
                        verdicts[outcome.verdict, default: 0] += 1
                        looks += outcome.looks
                    }
                    return (verdicts, looks)
                }
            }
            var all: [(verdicts: [MetricVerdict: Int], looks: Int)] = []
            for await partial in group { all.append(partial) }
            return all
        }
        var result = Result(trials: trials, seed: seed)
        for partial in partials {
            result.verdicts.merge(partial.verdicts, uniquingKeysWith: +)
            result.looks += partial.looks
        }
        result.seconds = Date().timeIntervalSince(start)
        print(
            "gate simulation \(id) (stages \(stages), slowdown \(slowdown), ε \(settings.minimumEffectPercent) % / \(settings.minimumEffectMs) ms): \(result)"
        )
        return result
    }

    /// One comparison, looking after each stage until the gate stops.
    static func runTrial(gate: StagedGate, seed: UInt64, slowdown: Double) -> (verdict: MetricVerdict, looks: Int) {
        var generator = SeededGenerator(seed: seed)
        let most = gate.stages.last ?? 0
        let base = LaunchTimes.draw(most, scale: 1, using: &generator)
        let head = LaunchTimes.draw(most, scale: slowdown, using: &generator)
        for (index, count) in gate.stages.enumerated() {
            let metrics = [
                (
                    name: "timeToFirstFrame", gated: true, baseMs: Array(base.prefix(count)),
                    headMs: Array(head.prefix(count))
                )
            ]
            let look = gate.look(index, metrics: metrics, primary: "timeToFirstFrame")
            if look.stop { return (look.verdict, index + 1) }
        }
        return (.inconclusive, gate.stages.count)
    }
}

/// Synthetic launch times: log-normal, median 400 ms, 5 % coefficient of variation.
enum LaunchTimes {
    static let medianMs = 400.0
    static let coefficientOfVariation = 0.05
    /// σ of log(time) for which the log-normal's coefficient of variation is 5 %.
    static let sigma = log(1 + coefficientOfVariation * coefficientOfVariation).squareRoot()

    static func draw(_ count: Int, scale: Double, using generator: inout SeededGenerator) -> [Double] {
        (0..<count).map { _ in medianMs * scale * exp(sigma * standardNormal(using: &generator)) }
    }

    /// A standard normal by Box–Muller (one of the pair; simplicity over speed).
    static func standardNormal(using generator: inout SeededGenerator) -> Double {
        let u1 = Double(generator.next() >> 11 + 1) * 0x1p-53  // (0, 1]
        let u2 = Double(generator.next() >> 11) * 0x1p-53  // [0, 1)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
