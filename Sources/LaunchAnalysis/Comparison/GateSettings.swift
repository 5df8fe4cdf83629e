/// The thresholds of the regression gate: the significance level and the
/// smallest change worth reporting.
///
/// A change counts only when the one-sided test that it is larger than the
/// minimum effect ε is significant (Holm-adjusted p below this look's share of
/// `alpha`, ``AlphaSpending``); ε is the larger of a relative and an absolute
/// threshold, so that a 2 % change of a 30 ms phase is not a regression while a
/// 5 % change of a 400 ms launch is. In JSON, the property names as written.
///
/// ```swift
/// let settings = GateSettings(alpha: 0.01, minimumEffectPercent: 5, minimumEffectMs: 5)
/// settings.minimumEffectRatio(baseMedianMs: 400)   // 0.05
/// settings.minimumRuns(gatedMetrics: 1)            // 5
/// ```
public struct GateSettings: Sendable, Equatable, Codable {
    /// The family-wise significance level over the gated metrics and every look,
    /// spent across the looks as α·t³ (``AlphaSpending``).
    public var alpha: Double
    /// The smallest relative change that matters, in percent of the base median.
    public var minimumEffectPercent: Double
    /// The smallest absolute change that matters, in milliseconds.
    public var minimumEffectMs: Double

    /// Settings with the given thresholds; the defaults are α = 0.01, 5 % and 5 ms.
    ///
    /// ```swift
    /// let strict = GateSettings(minimumEffectPercent: 2, minimumEffectMs: 1)
    /// ```
    public init(alpha: Double = 0.01, minimumEffectPercent: Double = 5, minimumEffectMs: Double = 5) {
        self.alpha = alpha
        self.minimumEffectPercent = minimumEffectPercent
        self.minimumEffectMs = minimumEffectMs
    }

    /// ε as a ratio for a metric whose base median is `baseMedianMs`:
    /// max(percent / 100, ms · `floorShare` / baseMedianMs).
    ///
    /// Between-session noise does not raise ε: sides from different sessions are
    /// tested at the session level instead (``SessionComparison``).
    ///
    /// A change by the factor 1 + ε is the smallest that counts. The absolute
    /// floor is meant for the launch's total; a part of it (a phase, a span) gets
    /// the floor scaled by its share of the total (`floorShare`, see
    /// ``ComparisonMetrics/floorShares``), so a 0.7 ms phase is not held to a 5 ms
    /// change (about 680 %). When the base median is not positive the absolute
    /// threshold cannot be expressed as a ratio: the result is infinite if the scaled
    /// floor is positive, else the relative threshold alone; the gate then judges the
    /// metric on its absolute value instead (``AbsoluteChange``).
    ///
    /// ```swift
    /// GateSettings().minimumEffectRatio(baseMedianMs: 400)   // 0.05 (5 % > 5 ms / 400 ms)
    /// GateSettings().minimumEffectRatio(baseMedianMs: 50)    // 0.1 (5 ms / 50 ms)
    /// GateSettings().minimumEffectRatio(baseMedianMs: 0.73, floorShare: 0.73 / 60)  // ≈ 0.083
    /// ```
    public func minimumEffectRatio(baseMedianMs: Double, floorShare: Double = 1) -> Double {
        let relative = minimumEffectPercent / 100
        let floor = minimumEffectMs * (floorShare.isFinite ? max(floorShare, 0) : 1)
        return baseMedianMs > 0 ? max(relative, floor / baseMedianMs) : floor > 0 ? .infinity : relative
    }

    /// The floor a metric with no base is tested against (``AbsoluteChange``),
    /// milliseconds: ``minimumEffectMs`` × `floorShare` (clamped to 0…1; 1 when not finite).
    ///
    /// ```swift
    /// GateSettings().absoluteFloorMs(floorShare: 50.0 / 400)  // 0.625
    /// ```
    public func absoluteFloorMs(floorShare: Double) -> Double {
        minimumEffectMs * (floorShare.isFinite ? min(max(floorShare, 0), 1) : 1)
    }

    /// The smallest first stage r for which stages r, 2r, …, `looks`·r (compare's
    /// default stages) can each reach significance after Holm with `gatedMetrics`
    /// metrics, α spent across the looks as α·t³ (``AlphaSpending``).
    ///
    /// Look k of L tests its first Holm step at α·((k/L)³ − ((k−1)/L)³) / gatedMetrics,
    /// whatever r; it can reach that with k·r launches a side when
    /// ``minimumRuns(level:)`` ≤ k·r. The first look, with the smallest share and
    /// the fewest launches, nearly always decides. `gatedMetrics` and `looks` below 1
    /// count as 1; `Int.max` when `alpha` is not positive.
    ///
    /// ```swift
    /// GateSettings().minimumRuns(gatedMetrics: 1)            // 5: 1/252 < 0.01 ≤ 1/70
    /// GateSettings().minimumRuns(gatedMetrics: 1, looks: 3)  // 7: the first look tests at 0.01/27
    /// ```
    public func minimumRuns(gatedMetrics: Int, looks: Int = 1) -> Int {
        let count = max(looks, 1)
        let levels = AlphaSpending.levels(alpha: alpha, stages: Array(1...count))
        var least = 1
        for (index, level) in levels.enumerated() {
            let needed = Self.minimumRuns(level: level / Double(max(gatedMetrics, 1)))
            guard needed < .max else { return .max }
            least = max(least, (needed + index) / (index + 1))  // ⌈needed / (index + 1)⌉
        }
        return least
    }

    /// The least n with 1/C(2n, n) < `level`: the fewest launches a side with which
    /// the exact one-sided test can give a p-value below `level` (every head launch
    /// slower than every base launch gives 1/C(2n, n)). `Int.max` when `level` is not positive.
    ///
    /// ```swift
    /// GateSettings.minimumRuns(level: 0.01)       // 5: 1/252 < 0.01 ≤ 1/70
    /// GateSettings.minimumRuns(level: 0.01 / 27)  // 7: 1/3432 < 0.00037 ≤ 1/924
    /// ```
    public static func minimumRuns(level: Double) -> Int {
        guard level > 0 else { return .max }
        var n = 1
        var arrangements = 2.0  // C(2n, n)
        while 1 / arrangements >= level {
            // C(2n+2, n+1) = C(2n, n) · (2n+1)(2n+2) / (n+1)²
            arrangements *= Double((2 * n + 1) * (2 * n + 2)) / Double((n + 1) * (n + 1))
            n += 1
        }
        return n
    }
}
