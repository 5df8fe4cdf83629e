import Foundation

/// Says which whole number of a report a decoder could not hold, and why.
///
/// `JSONDecoder` fails on a negative number where an unsigned one belongs, or
/// one of 2^64 or more, with "The given data was not valid JSON" and no path.
/// ``find(in:failing:)`` scans the document for the whole numbers that can be
/// at fault (negative ones, and ones above `Int64.max`), puts 0 in the place of
/// each in turn and decodes again: the first whose replacement lets the decoder
/// past is the culprit, named by its path (`runs[3].exitCode: -5 is negative`).
/// It runs only after a decode failed, and tries at most ``maximumCandidates``.
enum JSONIntegerProblem {
    /// The most numbers tried, so a hostile document cannot make the error path slow.
    static let maximumCandidates = 64

    /// `runs[3].exitCode: -5 is negative`, or nil when no whole number is at fault.
    /// `failing` decodes the bytes, returning true when the same kind of failure happens.
    static func find(in data: Data, failing: (Data) -> Bool) -> String? {
        let bytes = [UInt8](data)
        for candidate in candidates(bytes).prefix(maximumCandidates) {
            var patched = bytes
            patched.replaceSubrange(candidate.range, with: [UInt8(ascii: "0")])
            if !failing(Data(patched)) {
                let literal = String(decoding: bytes[candidate.range], as: UTF8.self)
                let what = literal.hasPrefix("-") ? "is negative" : "is too large"
                return "\(candidate.path): \(literal.count > 40 ? String(literal.prefix(40)) + "…" : literal) \(what)"
            }
        }
        return nil
    }

    /// A whole number that may be at fault, with its path and where it is.
    struct Candidate {
        var path: String
        var range: Range<Int>
    }

    private enum Container {
        case object(key: String?)
        case array(index: Int)
    }

    /// Negative whole numbers, and whole numbers above `Int64.max`, in document order.
    static func candidates(_ bytes: [UInt8]) -> [Candidate] {
        var found: [Candidate] = []
        var stack: [Container] = []
        var index = 0
        func path() -> String {
            var text = ""
            for container in stack {
                switch container {
                case .object(let key?): text += text.isEmpty ? key : "." + key
                case .object(nil): break
                case .array(let position): text += "[\(position)]"
                }
            }
            return text
        }
        while index < bytes.count, found.count < maximumCandidates {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"): stack.append(.object(key: nil)); index += 1
            case UInt8(ascii: "["): stack.append(.array(index: 0)); index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if !stack.isEmpty { stack.removeLast() }; index += 1
            case UInt8(ascii: ","):
                if case .array(let position)? = stack.last { stack[stack.count - 1] = .array(index: position + 1) }
                index += 1
            case UInt8(ascii: "\""):
                var end = index + 1
                var escaped = false
                while end < bytes.count {
                    if escaped { escaped = false } else if bytes[end] == UInt8(ascii: "\\") { escaped = true } else if bytes[end] == UInt8(ascii: "\"") { break }
                    end += 1
                }
                // A string followed by ':' is a key.
                var after = end + 1
                while after < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[after]) { after += 1 }
                if after < bytes.count, bytes[after] == UInt8(ascii: ":"), case .object? = stack.last {
                    let key = String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self)
                    stack[stack.count - 1] = .object(key: key)
                }
                index = end + 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                var end = index + 1
                while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
                let whole = end >= bytes.count || ![UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[end])
                while end < bytes.count, !",]} \t\r\n".utf8.contains(bytes[end]) { end += 1 }
                if whole {
                    let literal = String(decoding: bytes[index..<end], as: UTF8.self)
                    if literal.hasPrefix("-") ? literal != "-0" : Int64(literal) == nil {
                        found.append(Candidate(path: path(), range: index..<end))
                    }
                }
                index = end
            default: index += 1
            }
        }
        return found
    }
}
