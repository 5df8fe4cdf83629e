/// Reads a number written in decimal, as people write them on a command line
/// or in an environment variable: `250`, `12.5`, `0.5`, `1e3`.
///
/// Swift's `Double(_: String)` also takes `0x10` (16), `inf`, `nan` and
/// `infinity`; a flag that takes milliseconds or seconds means none of those.
///
/// ```swift
/// DecimalNumber.parse("12.5")   // 12.5
/// DecimalNumber.parse("0x10")   // nil
/// DecimalNumber.parse("inf")    // nil
/// ```
public enum DecimalNumber {
    /// The finite value of `text` (digits with an optional sign, point and
    /// exponent, nothing around them); nil for anything else, and for a value
    /// too large for a `Double`.
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
        guard !integer.isEmpty || !fraction.isEmpty else { return nil }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            let exponent = bytes.prefix(while: isDigit)
            guard !exponent.isEmpty else { return nil }
            bytes = bytes.dropFirst(exponent.count)
        }
        guard bytes.isEmpty, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
