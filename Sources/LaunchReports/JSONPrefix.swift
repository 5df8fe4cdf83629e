/// The first bytes of a JSON document made into a whole one: every value
/// complete in the prefix kept, a number, string or literal cut off dropped,
/// and each object or array still open closed after its last complete value.
///
/// A report writes its header first (`JSONReport.render`), so the header of a
/// report of any size is read from a bounded prefix: `{"kind":"measurement",
/// "schemaVersion":3,"name":"x","runs":[{"ind` becomes
/// `{"kind":"measurement","schemaVersion":3,"name":"x","runs":[]}`.
///
/// Cost: one pass over the prefix; no allocation but the result and a stack of
/// the open containers.
enum JSONPrefix {
    /// `prefix` closed off, or nil when it does not begin with an object or is not JSON.
    static func closed(_ prefix: [UInt8]) -> [UInt8]? {
        // Per open container: its closing byte, whether it is an object, where its
        // last complete value ends, and whether an object waits for a key.
        var open: [(close: UInt8, isObject: Bool, safeEnd: Int, expectingKey: Bool)] = []
        var at = 0
        func skipWhitespace() {
            while at < prefix.count,
                prefix[at] == 0x20 || prefix[at] == 0x0A || prefix[at] == 0x0D || prefix[at] == 0x09
            { at += 1 }
        }
        /// A value just ended at `at`: the innermost container may be cut after it.
        func valueEnded() {
            guard !open.isEmpty else { return }
            open[open.count - 1].safeEnd = at
        }
        skipWhitespace()
        guard at < prefix.count, prefix[at] == UInt8(ascii: "{") else { return nil }
        scan: while true {
            skipWhitespace()
            guard at < prefix.count else { break }
            let byte = prefix[at]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                at += 1
                open.append(
                    (
                        byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"), byte == UInt8(ascii: "{"),
                        at, byte == UInt8(ascii: "{")
                    ))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let last = open.last, last.close == byte else { return nil }
                open.removeLast()
                at += 1
                if open.isEmpty { return Array(prefix[..<at]) }
                valueEnded()
                if open[open.count - 1].isObject { open[open.count - 1].expectingKey = false }
            case UInt8(ascii: ","):
                at += 1
                if let last = open.last, last.isObject { open[open.count - 1].expectingKey = true }
            case UInt8(ascii: ":"):
                at += 1
            case UInt8(ascii: "\""):
                at += 1
                var closed = false
                while at < prefix.count {
                    if prefix[at] == UInt8(ascii: "\\") {
                        at += 2
                    } else if prefix[at] == UInt8(ascii: "\"") {
                        at += 1
                        closed = true
                        break
                    } else {
                        at += 1
                    }
                }
                guard closed, at <= prefix.count else { break scan }
                if let last = open.last, last.isObject, last.expectingKey {
                    open[open.count - 1].expectingKey = false  // a key: its value is still to come
                } else {
                    valueEnded()
                }
            default:
                // A number or a literal: complete only when something follows it.
                while at < prefix.count, !Self.endsScalar(prefix[at]) { at += 1 }
                guard at < prefix.count else { break scan }
                valueEnded()
            }
        }
        // Cut inside the innermost container, after its last complete value, and close them all.
        guard let innermost = open.last else { return nil }
        var result = Array(prefix[..<innermost.safeEnd])
        for container in open.reversed() { result.append(container.close) }
        return result
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return true
        default: return false
        }
    }
}
