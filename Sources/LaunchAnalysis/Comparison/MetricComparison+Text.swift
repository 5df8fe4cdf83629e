extension MetricComparison {
    /// One line for people: `timeToFirstFrame +31.2% (+95.3 ms), 99% CI +27.0%…+35.1%, p(> +5.0%) = 0.0001`:
    /// the interval at the decision's level and the regression test's p-value.
    /// A metric whose sides come from different sessions with no estimate of their
    /// variance says so: its shift and interval are the within-session ones
    /// (`timeToReady +20.0% (+20.0 ms) within sessions, 98% CI …; sessions differ: no verdict`).
    public var summary: String {
        let interval =
            "\(confidenceText) CI \(Percent.text(intervalPercent.lower))…\(Percent.text(intervalPercent.upper))"
        if sessions?.source == SessionComparison.Source.none {
            return
                "\(name) \(Percent.text(shiftPercent)) (\(Milliseconds.signed(shiftMs))) within sessions, \(interval); sessions differ: no verdict"
        }
        return "\(name) \(Percent.text(shiftPercent)) (\(Milliseconds.signed(shiftMs))), \(interval), p\(effectText) "
            + (verdictPValue.map(Percent.pValueRelation) ?? "not recorded")
    }

    /// The interval with its confidence: `+27.0% … +35.1% (99%)`; `— … — (99.9%)` when
    /// no bound can be reached at that level with so few launches.
    public var intervalText: String {
        "\(Percent.text(intervalPercent.lower)) … \(Percent.text(intervalPercent.upper)) (\(confidenceText))"
    }

    /// The interval's two-sided confidence, 1 − 2·level: `95%`, `99%`, `99.67%`.
    public var confidenceText: String {
        var text = Milliseconds.fixed(100 * confidence, decimals: 2)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "%"
    }

    /// `(> +5.0%)`, the minimum effect the p-value tests; empty when unknown (schema version 1).
    var effectText: String {
        if minimumEffectPercent.isNaN { return "" }
        return verdict == .improvement
            ? "(< \(Percent.text(-minimumEffectPercent)))" : "(> \(Percent.text(minimumEffectPercent)))"
    }

    /// The p-value in the direction of the verdict: the "head is faster" test's
    /// for an improvement, the "head is slower" test's otherwise; after Holm for
    /// a gated metric. Nil for an improvement in a report that did not record it.
    public var verdictPValue: Double? {
        // Sides from different sessions with nothing to estimate the sessions' variance: no test was made.
        if sessions?.source == SessionComparison.Source.none { return nil }
        if verdict == .improvement { return improvementPValue }
        return gated ? adjustedPValue : pValue
    }

    /// What each side recorded of a `span:` metric: a budget span absent from
    /// every run of a side is measured as 0 there, which is no time at all.
    public enum Presence: Sendable, Equatable {
        /// Both sides recorded it (every phase metric).
        case both
        /// Only the head recorded it: new.
        case headOnly
        /// Only the base recorded it: gone.
        case baseOnly
        /// No run of either side recorded it: a budget names a span that does not exist (a misspelt name?).
        case neither
    }

    /// What the metric is, read from its spelt ``name`` (nil for a name no
    /// version of launchprof writes).
    public var id: MetricID? { MetricID(parsing: name) }

    /// Which sides recorded the metric (see ``Presence``).
    public var presence: Presence {
        guard case .span? = id else { return .both }
        let base = baseMs.contains { $0 > 0 }
        let head = headMs.contains { $0 > 0 }
        switch (base, head) {
        case (true, true): return .both
        case (false, true): return .headOnly
        case (true, false): return .baseOnly
        case (false, false): return .neither
        }
    }

    /// The difference of the sides' medians, head minus base, milliseconds.
    public var medianDifferenceMs: Double { Summary.median(headMs) - Summary.median(baseMs) }

    /// The difference of the medians in percent of the base median (NaN when the base median is 0).
    public var medianDifferencePercent: Double {
        let base = Summary.median(baseMs)
        return base > 0 ? 100 * medianDifferenceMs / base : .nan
    }
}

/// How comparisons write percentages and p-values.
public enum Percent {
    /// `+31.2%`, `−4.0%`, `0.0%` (one decimal; `signed` adds `+` to a positive value).
    public static func text(_ value: Double, signed: Bool = true) -> String {
        guard value.isFinite else { return "—" }
        let rounded = Milliseconds.oneDecimal(abs(value))
        if rounded == "0.0" { return "0.0%" }
        return (value < 0 ? "−" : signed ? "+" : "") + rounded + "%"
    }

    /// A fraction as a whole percentage, `34%`; one too large for a whole number to
    /// mean anything in exponent form (`1e+310%`), never a clamped integer; `—` when not finite.
    public static func whole(_ fraction: Double) -> String {
        let percent = fraction * 100
        guard percent.isFinite else { return "—" }
        return abs(percent) < Milliseconds.hugeMagnitude ? "\(Int(percent.rounded()))%" : "\(percent)%"
    }

    /// `= 0.0123` or `< 0.0001`, to follow a "p".
    public static func pValueRelation(_ p: Double) -> String {
        p < 0.0001 ? "< 0.0001" : "= " + pValue(p)
    }

    /// `0.0123`, `< 0.0001`.
    public static func pValue(_ p: Double) -> String {
        guard p.isFinite else { return "—" }
        if p < 0.0001 { return "< 0.0001" }
        return Milliseconds.fixed(p, decimals: 4)
    }
}

extension Milliseconds {
    /// `+95.3 ms`, `−4.12 ms`.
    public static func signed(_ value: Double) -> String {
        (value < 0 ? "−" : "+") + text(abs(value))
    }
}
