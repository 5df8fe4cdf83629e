/// The gate on a deterministic metric (instruction counts).
///
/// Mann–Whitney cannot decide at 3 launches a side (its smallest one-sided p is
/// 0.05) and need not: identical launches give identical counts, or counts that
/// differ by a spread this session measures. The rule:
///
/// - **regression** when every head launch counts more than every base launch
///   and the head's median exceeds the base's by more than the minimum effect ε
///   (default 1 %) and by more than the spread between identical launches
///   measured in the same session (the larger of the two sides' max ÷ min − 1);
/// - **improvement** (a pass) the same the other way;
/// - **inconclusive** when neither holds and that spread is above ε: the counts
///   were not repeatable enough here to see an effect of size ε;
/// - **pass** otherwise.
///
/// It has no p-value, so it stays outside Holm's correction across the noisy
/// metrics: its error rate is not α but the chance that noise larger than the
/// measured spread appears, which repeatable counts make nil.
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
        /// The effect a change had to exceed: max(ε, spread).
        public var threshold: Double
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
        let baseValues = base.map { Double($0) }.sorted(), headValues = head.map { Double($0) }.sorted()
        func spread(_ sorted: [Double]) -> Double { sorted.first! > 0 ? sorted.last! / sorted.first! - 1 : 0 }
        let aa = max(spread(baseValues), spread(headValues))
        let baseMedian = Summary.median(baseValues), headMedian = Summary.median(headValues)
        let shift = baseMedian > 0 ? headMedian / baseMedian - 1 : 0
        let threshold = max(minimumEffect, aa)
        let above = headValues.first! > baseValues.last!, below = headValues.last! < baseValues.first!
        let status: Decision.Status
        if above, shift > threshold {
            status = .regression
        } else if below, -shift > threshold {
            status = .improvement
        } else if aa > minimumEffect {
            status = .inconclusive
        } else {
            status = .pass
        }
        return Decision(status: status, shift: shift, spread: aa, threshold: threshold, separated: above || below)
    }
}
