extension MetricComparison {
    /// One line for people: `timeToFirstFrame +31.2% (+95.3 ms), 95% CI +27.0%…+35.1%, p = 0.0001`.
    public var summary: String {
        "\(name) \(Percent.text(shiftPercent)) (\(Milliseconds.signed(shiftMs))), 95% CI "
            + "\(Percent.text(intervalPercent[0]))…\(Percent.text(intervalPercent[1])), p \(Percent.pValueRelation(adjustedPValue))"
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
