import Foundation
import LaunchAnalysis

/// The calibrate rule: what the A/A rounds say the gate can see, and the ε
/// recommended from what the user says matters (`--target-effect`), not from the noise.
///
/// The noise σ is the spread of one launch's log time within a side (the median
/// absolute deviation × 1.4826, a standard deviation robust to outliers, pooled
/// over every side of every round). The gate's test is Mann–Whitney on log time,
/// whose shift estimate has, for n launches a side, a standard error of about
/// σ·√(2/n)·√(π/3) (the test's efficiency against a t-test is 3/π). A true change
/// d is then a regression with probability about Φ((ln(1+d) − ln(1+ε))/se − z₁₋ₗ),
/// at the level l of the look that decides: its share of α, spent as compare
/// spends it over its three default looks (α·t³, ``AlphaSpending``: α/27 at the
/// first look, `--runs` launches a side, 19α/27 at the last, three times `--runs`;
/// ``lookLevels(alpha:)``). The earlier looks' chances are left out, so the model
/// errs on the side of needing more launches. So:
///  - the **minimum detectable effect** at n launches and ε is the d found with
///    80 % probability: ln(1+d) = ln(1+ε) + (z₁₋ₗ + z₀.₈)·se, at the first look's
///    level for `--runs` and the last look's for three times it;
///  - the **launches needed** for a target t at ε, by the last look (l = 19α/27):
///    n = 2·(π/3)·((z₁₋ₗ + z₀.₈)·σ / (ln(1+t) − ln(1+ε)))²;
///  - the **noise interval** is σ's 95 % confidence interval from the N launches it
///    was pooled from: log σ̂ ± 1.96·√(1.36/N) (the MAD-based σ's asymptotic variance
///    is about 1.36σ²/N: its efficiency against the standard deviation is 37 %);
///  - the **recommended ε** is the largest (rounded down to a half percent) with
///    which the target is found in 80 % of comparisons by compare's last default
///    stage (three times `--runs`) when the noise is at its interval's upper bound,
///    the most it may be; when even ε = 0.5 % cannot, 0.5 %, with the launches it
///    needs. It falls as σ grows and never rises.
///  - the ε the interval allows runs from that upper bound's to its lower bound's
///    (``effectInterval(target:runs:alpha:)``). When that range is at most one half
///    percent step, two calibrations whose noise intervals overlap recommend within
///    one step of each other (both lie within a step below the ε of a σ their
///    intervals share); when it is wider, calibrate says so and how many rounds
///    narrow it to one step (``roundsToSettle(target:runs:alpha:)``).
/// The widest A/A interval is kept beside it, as the noise the user sees.
struct CalibrationRule {
    /// The widest A/A interval so far, percent and milliseconds either way.
    private(set) var widestPercent = 0.0, widestMs = 0.0
    /// Each side's σ² of log time (one per side per round) and its launch count.
    private(set) var variances: [(value: Double, count: Int)] = []
    /// Each round's median over both sides: one session's median each.
    private(set) var sessionMediansMs: [Double] = []

    /// The settings of an A/A round: no least effect, so the interval is the noise.
    static let roundSettings = GateSettings(minimumEffectPercent: 0, minimumEffectMs: 0)
    /// The probability with which a change is said to be detectable.
    static let power = 0.8
    /// The looks of compare's default stages (`--runs`, twice and three times it).
    static let defaultLooks = 3

    /// The level of each of compare's default looks at `alpha`: α spent as α·t³
    /// over stages r, 2r, 3r (α/27, 7α/27, 19α/27), as ``StagedGate`` spends it.
    static func lookLevels(alpha: Double) -> [Double] {
        AlphaSpending.levels(alpha: alpha, stages: Array(1...defaultLooks))
    }

    /// Takes in one round's primary comparison.
    mutating func add(_ primary: MetricComparison) {
        let finite = { (values: [Double]) in values.filter(\.isFinite) }
        widestPercent = max(widestPercent, finite(primary.intervalPercent.bounds.map(abs)).max() ?? 0)
        widestMs = max(widestMs, finite(primary.intervalMs.bounds.map(abs)).max() ?? 0)
        for side in [primary.baseMs, primary.headMs] {
            let logs = finite(side).map { log(max($0, 0.001)) }
            guard logs.count > 1 else { continue }
            let center = Summary.median(logs)
            let sigma = 1.4826 * Summary.median(logs.map { abs($0 - center) })
            variances.append((sigma * sigma, logs.count))
        }
        let both = finite(primary.baseMs + primary.headMs)
        if !both.isEmpty { sessionMediansMs.append(Summary.median(both)) }
    }

    /// σ of one launch's log time, pooled over the rounds' sides (weighted by launches); 0 before any.
    var noise: Double {
        let weight = launches
        guard weight > 0 else { return 0 }
        return (variances.reduce(0) { $0 + $1.value * Double($1.count) } / Double(weight)).squareRoot()
    }

    /// The launches ``noise`` is pooled from: every side of every round.
    var launches: Int { variances.reduce(0) { $0 + $1.count } }

    /// The asymptotic variance of the MAD-based σ, in units of σ²/N.
    static let madVariance = 1.36
    /// The two-sided 95 % normal quantile the noise interval uses.
    static let noiseIntervalZ = 1.959_963_984_540_054

    /// The noise's 95 % confidence interval from `launches` launches (``launches`` by default):
    /// ``noise`` × exp(∓1.96·√(1.36/N)). A single point before any launch.
    func noiseInterval(launches count: Int? = nil) -> ClosedRange<Double> {
        let count = count ?? launches
        guard count > 0, noise > 0 else { return noise...noise }
        let half = Self.noiseIntervalZ * (Self.madVariance / Double(count)).squareRoot()
        return noise * exp(-half)...noise * exp(half)
    }

    /// The median of the sessions' medians, milliseconds.
    var medianMs: Double { Summary.median(sessionMediansMs) }

    /// The rounds as separate sessions: what `--save-baseline` stores beside the baseline.
    func spread(metric: String) -> SessionSpread {
        SessionSpread(metric: metric, sessionMediansMs: sessionMediansMs, source: .sessions)
    }

    /// z₁₋ₗ + z_power for a look at `level`.
    static func zSum(level: Double) -> Double {
        RankStatistics.normalQuantile(1 - level) + RankStatistics.normalQuantile(power)
    }

    /// The standard error of the shift of log time with `runs` launches a side, at `sigma` (``noise`` by default).
    func standardError(runs: Int, sigma: Double? = nil) -> Double {
        (sigma ?? noise) * (2 / Double(max(runs, 1)) * Double.pi / 3).squareRoot()
    }

    /// The change found with ``power`` at `runs` launches a side and least effect `effect` (ratios), at `level`.
    func minimumDetectable(runs: Int, effect: Double, level: Double) -> Double {
        exp(log(1 + effect) + Self.zSum(level: level) * standardError(runs: runs)) - 1
    }

    /// Launches per side needed to find `target` with ``power`` at least effect `effect` (ratios); nil when target ≤ effect.
    func launchesNeeded(target: Double, effect: Double, level: Double) -> Int? {
        let gap = log(1 + target) - log(1 + effect)
        guard gap > 0 else { return nil }
        let runs = 2 * Double.pi / 3 * pow(Self.zSum(level: level) * noise / gap, 2)
        // Never fewer than the exact test needs to reach `level` at all.
        return max(GateSettings.minimumRuns(level: level), Int(min(runs.rounded(.up), 1e9)))
    }

    /// The recommended ε (ratio, a multiple of 0.005) for `target` with compare's
    /// default stages from `runs`, at `alpha` (judged at the last look's share of it);
    /// `reached` is false when the target needs more launches even at the
    /// recommendation (then ε is 0.5 %, the smallest step).
    func recommendedEffect(target: Double, runs: Int, alpha: Double) -> (effect: Double, reached: Bool) {
        let largest = largestEffect(target: target, runs: runs, alpha: alpha, sigma: noiseInterval().upperBound)
        let rounded = (largest * 200).rounded(.down) / 200
        if rounded >= 0.005 { return (rounded, true) }
        // The floor, not a fraction of the target: the recommendation only falls as the noise
        // grows (a noisier run never recommends a larger ε than a quieter one).
        return (0.005, false)
    }

    /// The largest ε (ratio, not rounded) with which compare's default stages from `runs`
    /// find `target` with ``power`` when one launch's log time has σ `sigma`, judged at the
    /// last look's share of `alpha`.
    func largestEffect(target: Double, runs: Int, alpha: Double, sigma: Double) -> Double {
        let level = Self.lookLevels(alpha: alpha).last!
        return exp(
            log(1 + target) - Self.zSum(level: level) * standardError(runs: Self.defaultLooks * runs, sigma: sigma)) - 1
    }

    /// The ε the noise interval allows (not rounded, each end at least 0): from the one at its
    /// upper bound (the recommendation's) to the one at its lower bound, with `launches` launches
    /// behind the noise (``launches`` by default).
    func effectInterval(target: Double, runs: Int, alpha: Double, launches count: Int? = nil) -> ClosedRange<Double> {
        let noise = noiseInterval(launches: count)
        let low = max(0, largestEffect(target: target, runs: runs, alpha: alpha, sigma: noise.upperBound))
        let high = max(low, largestEffect(target: target, runs: runs, alpha: alpha, sigma: noise.lowerBound))
        return low...high
    }

    /// The rounds (of the same launches a round as these) after which the ε the noise
    /// interval allows spans at most one half-percent step, so that two calibrations whose
    /// intervals overlap recommend within a step of each other; nil when it already does
    /// (or no launch was pooled); ``Settling/beyondLimit`` when not even 100 rounds, the
    /// most `--rounds` takes, would.
    func roundsToSettle(target: Double, runs: Int, alpha: Double) -> Settling? {
        let step = 0.005
        guard launches > 0, !variances.isEmpty else { return nil }
        let now = effectInterval(target: target, runs: runs, alpha: alpha)
        guard now.upperBound - now.lowerBound > step else { return nil }
        let perRound = max(1, launches / max(1, sessionMediansMs.count))
        for rounds in 1...100 {
            let range = effectInterval(target: target, runs: runs, alpha: alpha, launches: rounds * perRound)
            if range.upperBound - range.lowerBound <= step { return .rounds(rounds) }
        }
        return .beyondLimit
    }

    /// How many rounds narrow the noise interval to one step.
    enum Settling: Equatable {
        /// This many (1 to 100).
        case rounds(Int)
        /// Not even 100, the most `--rounds` takes.
        case beyondLimit
    }

    /// The recommended `--min-effect-ms` for `effect`: the same change at the
    /// median launch, rounded down to a half millisecond, so the floor does not
    /// overrule the relative ε at this launch's length.
    func milliseconds(effect: Double) -> Double {
        guard medianMs.isFinite, medianMs > 0 else { return 0 }
        return (effect * medianMs * 2).rounded(.down) / 2
    }
}
