/// Reads a number written as a plain decimal, as people write them on a command
/// line or in an environment variable: `250`, `12.5`, `0.5`, `.5`.
///
/// Swift's `Double(_: String)` also takes `0x10` (16), `inf`, `nan`,
/// `infinity` and exponents (`1e19`, `1e-300`); a flag that takes milliseconds,
/// seconds or a percentage means none of those. Every option that takes a
/// number reads it here, and then checks it against a range it names
/// (``rangeText(_:_:unit:)``).
///
/// ```swift
/// DecimalNumber.parse("12.5")   // 12.5
/// DecimalNumber.parse("0x10")   // nil
/// DecimalNumber.parse("1e3")    // nil: a plain decimal has no exponent
/// ```
public enum DecimalNumber {
    /// The finite value of `text` (digits with an optional sign and point,
    /// nothing around them); nil for anything else: an exponent, a hexadecimal
    /// or named value, a value too large for a `Double`.
    public static func parse(_ text: String) -> Double? {
        var bytes = Array(text.utf8)[...]
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let integer = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(integer.count)
        var fraction = bytes[bytes.endIndex...]
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit)
            bytes = bytes.dropFirst(fraction.count)
        }
        guard !integer.isEmpty || !fraction.isEmpty, bytes.isEmpty, let value = Double(text), value.isFinite else {
            return nil
        }
        return value
    }

    /// `text` as a plain decimal within `range`; nil when it is not one, or is outside.
    public static func parse(_ text: String, in range: ClosedRange<Double>) -> Double? {
        guard let value = parse(text), range.contains(value) else { return nil }
        return value
    }

    /// How a refusal names a range: "from 0.001 to 3600000 milliseconds".
    public static func rangeText(_ lower: Double, _ upper: Double, unit: String) -> String {
        "from \(plain(lower)) to \(plain(upper))\(unit.isEmpty ? "" : " " + unit)"
    }

    /// `value` without a trailing `.0`: `3600000`, `0.001` (the bounds named are
    /// whole numbers or at least 0.0001, which `description` writes without an exponent).
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
