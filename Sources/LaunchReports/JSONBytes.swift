/// A JSON writer into a byte buffer, for renderers that write many small
/// values (the Chrome trace writes one object per span).
///
/// It writes what it is told, in order: the caller places the commas and
/// braces. Strings are escaped as RFC 8259 requires (`"`, `\`, and every
/// control character below U+0020); numbers are written from integers, so a
/// duration in nanoseconds becomes an exact decimal without formatting a
/// `Double`. Nothing is allocated per value beyond the buffer's growth.
///
/// ```swift
/// var json = JSONBytes(reservingCapacity: 64)
/// json.raw("{\"ts\":")
/// json.decimal(1_234_567, fractionDigits: 3)   // 1234.567
/// json.raw("}")
/// ```
struct JSONBytes {
    /// What has been written.
    private(set) var bytes: [UInt8] = []

    /// An empty writer whose buffer holds `capacity` bytes before it grows.
    init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes `text` as it is: punctuation and keys known to need no escaping.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes one byte as it is.
    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Writes `text` as a JSON string, quoted and escaped.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        stringContents(text)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes `file:line` as a JSON string, without building it first.
    mutating func location(file: String, line: Int) {
        bytes.append(UInt8(ascii: "\""))
        stringContents(file)
        bytes.append(UInt8(ascii: ":"))
        integer(line)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes `text` escaped, without quotes.
    private mutating func stringContents(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            // \u00XX: only control characters get here.
            func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : UInt8(ascii: "a") + nibble - 10 }
            bytes.append(UInt8(ascii: "u"))
            bytes.append(0x30)
            bytes.append(0x30)
            bytes.append(hex(byte >> 4))
            bytes.append(hex(byte & 0xF))
        }
    }

    /// Writes a non-negative integer.
    mutating func integer(_ value: UInt64) {
        if value < 10 {
            bytes.append(0x30 + UInt8(value))
            return
        }
        let start = bytes.count
        var rest = value
        while rest > 0 {
            bytes.append(0x30 + UInt8(rest % 10))
            rest /= 10
        }
        var low = start, high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    /// Writes an integer.
    mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        integer(UInt64(value.magnitude))
    }

    /// Writes `value / 10^fractionDigits` exactly, without trailing zeros:
    /// `decimal(1_500, fractionDigits: 3)` is `1.5`, `decimal(2_000, fractionDigits: 3)` is `2`.
    mutating func decimal(_ value: UInt64, fractionDigits: Int) {
        var scale: UInt64 = 1
        for _ in 0..<fractionDigits { scale *= 10 }
        integer(value / scale)
        var fraction = value % scale
        guard fraction > 0 else { return }
        var digits = fractionDigits
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        bytes.append(UInt8(ascii: "."))
        var divisor: UInt64 = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            bytes.append(0x30 + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// Writes `value / 10^fractionDigits` exactly, with its sign (see ``decimal(_:fractionDigits:)``).
    mutating func decimal(_ value: Int64, fractionDigits: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        decimal(value.magnitude, fractionDigits: fractionDigits)
    }

    /// Writes nanoseconds as microseconds (the trace format's unit): `1234.567`.
    mutating func microseconds(_ nanoseconds: Int64) {
        decimal(nanoseconds, fractionDigits: 3)
    }

    /// Writes nanoseconds as milliseconds: `12.345678`.
    mutating func milliseconds(_ nanoseconds: UInt64) {
        decimal(nanoseconds, fractionDigits: 6)
    }
}
