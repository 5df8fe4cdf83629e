import Foundation

/// Says which number of a document a decoder could not hold, and the range
/// its field takes.
///
/// `JSONDecoder` fails on `-5` where an unsigned number belongs, on `1.5`
/// where a whole one does, on `2^64` or `1e400` anywhere, with "The given data
/// was not valid JSON" and no path. ``find(in:failing:)`` puts 0 in the place
/// of the document's numbers that can be at fault (negative, with a fraction
/// or exponent, or above `Int64.max`: ``suspects(_:)``), the first `k` of
/// them for a `k` it bisects, and decodes again: the number whose replacement
/// first lets the decoder past is at fault. Its field's range is then found by putting probes in its place
/// (`0.5`, the bounds of the integer types), and named:
/// `runs[3].exitCode: 1.5 is not a whole number from -2147483648 to 2147483647`.
///
/// Cost: it runs only after a decode failed; about log2(numbers) + 14 decodes.
enum JSONNumberProblem {
    /// The largest value of each integer type, widest first.
    static let upperBounds = [
        "18446744073709551615", "9223372036854775807", "4294967295", "2147483647", "65535", "32767", "255", "127",
    ]
    /// The smallest value of each integer type, widest first, and 0 for the unsigned ones.
    static let lowerBounds = ["-9223372036854775808", "-2147483648", "-32768", "-128", "0"]

    /// The problem with the number at fault, or nil when no number is.
    /// `failing` decodes the bytes, returning true when the same kind of failure happens.
    static func find(in data: Data, failing: (Data) -> Bool) -> String? {
        let bytes = [UInt8](data)
        let numbers = suspects(bytes)
        func patched(_ count: Int, then last: (Range<Int>, String)? = nil) -> Data {
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var copied = 0
            var replacements = numbers.prefix(count).map { ($0, "0") }
            if let last { replacements.append(last) }
            for (range, text) in replacements {
                out += bytes[copied..<range.lowerBound]
                out += Array(text.utf8)
                copied = range.upperBound
            }
            out += bytes[copied...]
            return Data(out)
        }
        guard !numbers.isEmpty, !failing(patched(numbers.count)) else { return nil }
        // The smallest count whose numbers, put to 0, let the decoder past: its last number is at fault.
        var (low, high) = (0, numbers.count)
        while high - low > 1 {
            let middle = (low + high) / 2
            if failing(patched(middle)) { low = middle } else { high = middle }
        }
        let culprit = numbers[high - 1]
        func passes(_ probe: String) -> Bool { !failing(patched(high - 1, then: (culprit, probe))) }
        let literal = String(decoding: bytes[culprit], as: UTF8.self)
        let shown = literal.count > 40 ? String(literal.prefix(40)) + "…" : literal
        let field = path(to: culprit.lowerBound, in: bytes)
        if passes("0.5") {
            return
                "\(field): \(shown) is not a finite number (a number's magnitude is at most \(Double.greatestFiniteMagnitude))"
        }
        guard let upper = upperBounds.first(where: passes), let lower = lowerBounds.first(where: passes) else {
            return "\(field): \(shown) is out of range"
        }
        return "\(field): \(shown) is not a whole number from \(lower) to \(upper)"
    }

    /// Where each number of the document that can be at fault is, outside
    /// strings, in order: a whole number from 0 to `Int64.max` every integer
    /// field this version writes holds, and any other may be in an integer field.
    static func suspects(_ bytes: [UInt8]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var at = 0
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                at = stringEnd(bytes, from: at)
            } else if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                var end = at + 1
                while end < bytes.count, !",]}: \t\r\n\"".utf8.contains(bytes[end]) { end += 1 }
                let literal = bytes[at..<end]
                if literal.first == UInt8(ascii: "-") || !literal.allSatisfy({ (0x30...0x39).contains($0) })
                    || Int64(String(decoding: literal, as: UTF8.self)) == nil
                {
                    found.append(at..<end)
                }
                at = end
            } else {
                at += 1
            }
        }
        return found
    }

    /// Just past the closing quote of the string opening at `start`.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var at = start + 1
        while at < bytes.count {
            if bytes[at] == UInt8(ascii: "\\") {
                at += 2
            } else if bytes[at] == UInt8(ascii: "\"") {
                return at + 1
            } else {
                at += 1
            }
        }
        return bytes.count
    }

    /// The path of the value at `offset`: `runs[3].exitCode`.
    static func path(to offset: Int, in bytes: [UInt8]) -> String {
        enum Step { case key(String), index(Int) }
        var path: [Step] = []
        var at = 0
        while at < offset, at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "{"):
                path.append(.key(""))
                at += 1
            case UInt8(ascii: "["):
                path.append(.index(0))
                at += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !path.isEmpty { path.removeLast() }
                at += 1
            case UInt8(ascii: ","):
                if case .index(let index)? = path.last { path[path.count - 1] = .index(index + 1) }
                at += 1
            case UInt8(ascii: "\""):
                let end = stringEnd(bytes, from: at)
                if case .key? = path.last {
                    var next = end
                    while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                    if next < bytes.count, bytes[next] == UInt8(ascii: ":") {
                        let raw = Array(bytes[(at + 1)..<max(at + 1, end - 1)])
                        let key =
                            (try? JSONDecoder().decode(String.self, from: Data([0x22] + raw + [0x22])))
                            ?? String(decoding: raw, as: UTF8.self)
                        path[path.count - 1] = .key(key)
                    }
                }
                at = end
            default: at += 1
            }
        }
        var text = ""
        for step in path {
            switch step {
            case .key(let key):
                let escaped = key.unicodeScalars.map {
                    $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0)
                }.joined()
                text += text.isEmpty ? escaped : "." + escaped
            case .index(let index): text += "[\(index)]"
            }
        }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
