/// The gate on a deterministic metric (instruction counts).
///
/// Mann–Whitney cannot decide at 3 launches a side (its smallest one-sided p is
/// 0.05) and need not: identical launches give identical counts, or counts that
/// differ by a spread this session measures. With `shift` the head median ÷ the
/// base median − 1, `s` the spread of identical launches (the larger side's
/// max ÷ min − 1) and ε the minimum effect (default 1 %), the rule is:
///
/// - **regression** when `shift > ε` and `shift > s`: the change is larger than
///   the effect that matters and than what identical launches differ by;
/// - **improvement** (a pass) when `−shift > ε` and `−shift > s`;
/// - **pass** only when `shift < ε − s`: below ε by more than the spread, so a
///   change of ε could not hide in it;
/// - **inconclusive** otherwise (a shift within the spread of ε, or a spread
///   too wide to tell).
///
/// Whether the sides overlap is reported (``Decision/separated``), not required:
/// a +1.85 % shift at ε = 1 % with overlapping sides spread 1 % is a regression,
/// one of +0.5 % with a spread of 1 % is inconclusive, and identical counts pass.
/// It has no p-value, so it stays outside Holm's correction across the noisy
/// metrics: its error rate is not α but the chance that noise larger than the
/// measured spread appears, which repeatable counts make nil.
///
/// ```swift
/// try InstructionGate.decide(base: [100, 100, 101], head: [101, 102, 103]).status  // .regression: +2 %, above ε and the 1.98 % spread
/// ```
public enum InstructionGate {
    /// The default minimum effect: 1 %.
    public static let defaultMinimumEffect = 0.01
    /// Launches a side the rule needs: enough to measure a spread on each.
    public static let minimumLaunches = 3

    /// What the rule decided.
    public struct Decision: Sendable, Equatable, Codable {
        /// The outcome.
        public enum Status: String, Sendable, Equatable, Codable {
            case regression, improvement, pass, inconclusive
        }
        /// The outcome.
        public var status: Status
        /// head median ÷ base median − 1.
        public var shift: Double
        /// The larger side's max ÷ min − 1: how much identical launches differed.
        public var spread: Double
        /// The effect a change had to exceed to be a regression (or an improvement): max(ε, spread).
        public var threshold: Double
        /// The shift a change had to stay below to pass: ε − spread (nil in reports
        /// written before the rule had it).
        public var passBelow: Double?
        /// True when the two sides do not overlap (every head above, or below, every base).
        public var separated: Bool
    }

    /// Why the rule cannot decide.
    public enum RuleError: Error, Sendable, Equatable {
        /// A side has fewer than ``minimumLaunches`` counts.
        case tooFewLaunches(base: Int, head: Int, needed: Int)
    }

    /// Decides on `base` and `head` counts with minimum effect `minimumEffect` (a fraction).
    public static func decide(base: [UInt64], head: [UInt64], minimumEffect: Double = defaultMinimumEffect)
        throws(RuleError) -> Decision
    {
        guard base.count >= minimumLaunches, head.count >= minimumLaunches else {
            throw .tooFewLaunches(base: base.count, head: head.count, needed: minimumLaunches)
        }
        let baseValues = base.map { Double($0) }.sorted()
        let headValues = head.map { Double($0) }.sorted()
        func spread(_ sorted: [Double]) -> Double { sorted.first! > 0 ? sorted.last! / sorted.first! - 1 : 0 }
        let aa = max(spread(baseValues), spread(headValues))
        let baseMedian = Summary.median(baseValues)
        let headMedian = Summary.median(headValues)
        let shift = baseMedian > 0 ? headMedian / baseMedian - 1 : 0
        let threshold = max(minimumEffect, aa)
        let passBelow = minimumEffect - aa
        let above = headValues.first! > baseValues.last!
        let below = headValues.last! < baseValues.first!
        let status: Decision.Status
        if shift > threshold {
            status = .regression
        } else if -shift > threshold {
            status = .improvement
        } else if shift < passBelow {
            status = .pass
        } else {
            status = .inconclusive
        }
        return Decision(
            status: status, shift: shift, spread: aa, threshold: threshold, passBelow: passBelow,
            separated: above || below)
    }
}
