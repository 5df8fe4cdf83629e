/// How every report and recommendation writes a duration, so the advisor's
/// sentences and the tables agree: `412 ms`, `41.2 ms`, `4.12 ms`, `0.41 ms`.
///
/// ```swift
/// Milliseconds.text(41.237)   // "41.2 ms"
/// ```
public enum Milliseconds {
    /// `value` milliseconds with the precision its size deserves; `—` for NaN.
    ///
    /// Any `Double` is written, never trapped on: infinities as `inf ms`, and
    /// values of 10^15 or more in exponent form (`1e+308 ms`).
    public static func text(_ value: Double) -> String {
        if value.isNaN { return "—" }
        let magnitude = abs(value)
        if magnitude >= hugeMagnitude { return "\(huge(value)) ms" }
        if magnitude >= 100 { return "\(Int(saturating: value.rounded())) ms" }
        if magnitude >= 10 { return "\(oneDecimal(value)) ms" }
        return "\(twoDecimals(value)) ms"
    }

    /// `value` rounded to one decimal, always written with it: `2.0`, `41.2`.
    public static func oneDecimal(_ value: Double) -> String {
        if value.isNaN { return "—" }
        if abs(value) >= hugeMagnitude { return huge(value) }
        let scaled = (value * 10).rounded() / 10
        return scaled == scaled.rounded() ? "\(Int(saturating: scaled)).0" : "\(scaled)"
    }

    /// From here on a `Double` no longer holds every whole number, and
    /// decimals mean nothing: such values are written in exponent form.
    package static let hugeMagnitude = 1e15

    /// `inf`, `-inf`, or `value` in Swift's shortest form (`1e+308`).
    private static func huge(_ value: Double) -> String {
        value.isInfinite ? (value < 0 ? "-inf" : "inf") : "\(value)"
    }

    /// `value` rounded to two decimals, always written with both: `4.10`, `0.41`.
    public static func twoDecimals(_ value: Double) -> String {
        fixed(value, decimals: 2)
    }

    /// `value` rounded to `decimals` places (1 to 6), always written with all of them: `0.0120`.
    public static func fixed(_ value: Double, decimals places: Int) -> String {
        if value.isNaN { return "—" }
        if abs(value) >= hugeMagnitude { return huge(value) }
        var power = 1.0
        for _ in 0..<places { power *= 10 }
        let scaled = (value * power).rounded() / power
        var text = "\(scaled)"
        if let dot = text.firstIndex(of: "."), !text.contains("e") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < places { text += String(repeating: "0", count: places - decimals) }
        }
        return text
    }

    /// `412 ms > 400 ms`, with a decimal more when rounding would make the two look equal.
    public static func comparison(_ value: Double, _ limit: Double) -> String {
        var left = text(value)
        var right = text(limit)
        if left == right {
            left = "\(twoDecimals(value)) ms"
            right = "\(twoDecimals(limit)) ms"
        }
        return "\(left) > \(right)"
    }
}
