/// A regression gate that looks at the data several times as launches
/// accumulate, stopping as soon as it can decide.
///
/// `stages` are the cumulative launches per side at each look, e.g. `[20, 40, 60]`:
/// launch 20 of each, decide; if inconclusive, launch 20 more of each and decide
/// on all 40; and so on. α is spent across the looks as α·t³ (``AlphaSpending``):
/// look k tests at `settings.alpha · (t_k³ − t_{k−1}³)` with t_k = stages[k] / stages.last,
/// so the chance of a false regression (or pass) over all looks stays at most
/// `settings.alpha`, the early looks are cheap and the last keeps most of α
/// (20/40/60: α/27, 7α/27, 19α/27). The gate itself does not launch anything; the
/// caller brings the data of each look.
///
/// ```swift
/// let gate = StagedGate(stages: [20, 40, 60], settings: GateSettings())
/// for index in gate.stages.indices {
///     let data = launchMore(upTo: gate.stages[index])
///     let look = gate.look(index, metrics: data, primary: "timeToFirstFrame")
///     if look.stop { print(look.verdict); break }
/// }
/// ```
public struct StagedGate: Sendable {
    /// Cumulative launches per side at each look, ascending.
    public var stages: [Int]
    /// The thresholds; `settings.alpha` is the level over all looks.
    public var settings: GateSettings

    /// A gate looking after each of `stages` launches per side.
    ///
    /// ```swift
    /// let gate = StagedGate(stages: [20], settings: GateSettings())  // one look
    /// ```
    public init(stages: [Int], settings: GateSettings) {
        self.stages = stages
        self.settings = settings
    }

    /// The significance level of each look, in stage order: `settings.alpha` spent
    /// as α·t³ (``AlphaSpending/levels(alpha:stages:)``); they add up to `settings.alpha`.
    ///
    /// ```swift
    /// StagedGate(stages: [20, 40, 60], settings: GateSettings()).alphaPerLook  // [0.00037…, 0.00259…, 0.00703…]
    /// ```
    public var alphaPerLook: [Double] {
        AlphaSpending.levels(alpha: settings.alpha, stages: stages)
    }

    /// The significance level of look `index` (0-based): its share of `settings.alpha`
    /// (``AlphaSpending/level(alpha:stages:look:)``; an index past the last stage is
    /// the last look, no stages is one look at `settings.alpha`).
    ///
    /// ```swift
    /// StagedGate(stages: [20], settings: GateSettings()).alpha(atLook: 0)  // 0.01
    /// ```
    public func alpha(atLook index: Int) -> Double {
        AlphaSpending.level(alpha: settings.alpha, stages: stages, look: index)
    }

    /// Decides at look `index` (0-based) with the data so far.
    ///
    /// Returns the metrics (``GateDecision/compare(_:settings:alpha:machines:floorShares:)`` at
    /// ``alpha(atLook:)``: the regression, improvement and pass tests, Holm's steps, and the
    /// interval all at this look's share), the overall verdict (``GateDecision/overall(_:primary:)``),
    /// and whether to stop: on any verdict but inconclusive, or at the last stage
    /// (an index at or past it). The number of launches in `metrics` is not checked
    /// against `stages[index]`. `machines` stratifies the comparison by machine,
    /// as ``GateDecision/compare(_:settings:alpha:machines:floorShares:)`` says; `floorShares`
    /// scales each metric's absolute minimum effect; `sessions` and `evidence` test sides from
    /// different sessions at the session level (``SessionComparison``).
    ///
    /// ```swift
    /// let look = gate.look(0, metrics: firstTwenty, primary: "timeToFirstFrame")
    /// if !look.stop { /* launch up to gate.stages[1] per side */ }
    /// ```
    public func look(
        _ index: Int, metrics: [(name: String, gated: Bool, baseMs: [Double], headMs: [Double])], primary: String,
        machines: [GateDecision.Machines]? = nil, floorShares: [Double]? = nil,
        sessions: [GateDecision.Sessions]? = nil,
        evidence: SessionEvidence = SessionEvidence()
    ) -> (metrics: [MetricComparison], verdict: MetricVerdict, stop: Bool) {
        let compared = GateDecision.compare(
            metrics, settings: settings, alpha: alpha(atLook: index), machines: machines, floorShares: floorShares,
            sessions: sessions,
            evidence: evidence)
        let verdict = GateDecision.overall(compared, primary: primary)
        return (compared, verdict, verdict != .inconclusive || index >= stages.count - 1)
    }
}
