extension MetricComparison {
    /// One line for people: `timeToFirstFrame +31.2% (+95.3 ms), 99% CI +27.0%…+35.1%, p(> +5.0%) = 0.0001`:
    /// the interval at the decision's level and the regression test's p-value.
    public var summary: String {
        "\(name) \(Percent.text(shiftPercent)) (\(Milliseconds.signed(shiftMs))), \(confidenceText) CI "
            + "\(Percent.text(intervalPercent[0]))…\(Percent.text(intervalPercent[1])), p\(effectText) \(Percent.pValueRelation(adjustedPValue))"
    }

    /// The interval with its confidence: `+27.0% … +35.1% (99%)`; `— … — (99.9%)` when
    /// no bound can be reached at that level with so few launches.
    public var intervalText: String {
        "\(Percent.text(intervalPercent[0])) … \(Percent.text(intervalPercent[1])) (\(confidenceText))"
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
        minimumEffectPercent.isNaN ? "" : "(> \(Percent.text(minimumEffectPercent)))"
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
