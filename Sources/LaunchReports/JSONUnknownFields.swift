/// Fields a report holds that this version does not know, carried into the JSON
/// it writes again (`launchprof report x.json --format json`), so that rewriting
/// a report written by a later launchprof of the same schema keeps them.
///
/// The original and the new bytes are read side by side: where an object of the
/// original has a key the new one lacks, that key and its value, as written, are
/// added at the end of the new object. Objects are matched by key, arrays element
/// by element when they have as many elements (otherwise they are the new ones).
/// Only a report of the schema version this launchprof writes is read for them:
/// an older one holds no field this version does not know, only older forms of
/// known ones.
///
/// ```swift
/// let kept = JSONUnknownFields.carried(from: original, into: rewritten)
/// ```
package enum JSONUnknownFields {
    /// A value of a JSON document: where it is in the bytes, and for an object
    /// its members and where its closing brace is; for an array its elements
    /// (nil for an array of scalars, which cannot hold a field).
    indirect enum Node {
        case object(range: Range<Int>, members: [(key: Range<Int>, value: Node)], close: Int)
        case array(range: Range<Int>, elements: [Node]?)
        case scalar(range: Range<Int>)

        var range: Range<Int> {
            switch self {
            case .object(let range, _, _), .array(let range, _), .scalar(let range): return range
            }
        }
    }

    /// `fresh` with the fields of `original` it lacks added (see the type); `fresh`
    /// itself when there are none or either is not JSON.
    package static func carried(from original: [UInt8], into fresh: [UInt8]) -> [UInt8] {
        var old = Parser(bytes: original)
        var new = Parser(bytes: fresh)
        guard let before = old.document(), let after = new.document() else { return fresh }
        var insertions: [(at: Int, bytes: [UInt8])] = []
        collect(before, after, original: original, fresh: fresh, into: &insertions)
        guard !insertions.isEmpty else { return fresh }
        insertions.sort { $0.at < $1.at }
        var result: [UInt8] = []
        result.reserveCapacity(fresh.count + insertions.reduce(0) { $0 + $1.bytes.count })
        var from = 0
        for insertion in insertions {
            result += fresh[from..<insertion.at]
            result += insertion.bytes
            from = insertion.at
        }
        result += fresh[from...]
        return result
    }

    /// The insertions that carry what `old` has and `new` lacks.
    private static func collect(
        _ old: Node, _ new: Node, original: [UInt8], fresh: [UInt8], into insertions: inout [(at: Int, bytes: [UInt8])]
    ) {
        switch (old, new) {
        case (.object(_, let oldMembers, _), .object(_, let newMembers, let close)):
            var added: [UInt8] = []
            var empty = newMembers.isEmpty
            for member in oldMembers {
                let key = original[member.key]
                if let counterpart = newMembers.first(where: { fresh[$0.key].elementsEqual(key) }) {
                    collect(member.value, counterpart.value, original: original, fresh: fresh, into: &insertions)
                } else {
                    if !empty { added.append(UInt8(ascii: ",")) }
                    empty = false
                    added.append(UInt8(ascii: "\""))
                    added += key
                    added += Array("\":".utf8)
                    added += original[member.value.range]
                }
            }
            if !added.isEmpty { insertions.append((close, added)) }
        case (.array(_, let oldElements?), .array(_, let newElements?)) where oldElements.count == newElements.count:
            for (before, after) in zip(oldElements, newElements) {
                collect(before, after, original: original, fresh: fresh, into: &insertions)
            }
        default:
            return
        }
    }

    /// A reader of one JSON document into ``Node``s; nil for bytes that are not JSON.
    struct Parser {
        let bytes: [UInt8]
        var at = 0

        mutating func document() -> Node? {
            guard let node = value() else { return nil }
            skipSpace()
            return at == bytes.count ? node : nil
        }

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        mutating func value() -> Node? {
            skipSpace()
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "{"): return object()
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "\""):
                let start = at
                guard string() != nil else { return nil }
                return .scalar(range: start..<at)
            default:
                let start = at
                while at < bytes.count, !",]} \t\r\n".utf8.contains(bytes[at]) { at += 1 }
                return at > start ? .scalar(range: start..<at) : nil
            }
        }

        /// A string at `at`; the range of its contents (between the quotes).
        mutating func string() -> Range<Int>? {
            at += 1
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
                at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return start..<at
        }

        mutating func object() -> Node? {
            let start = at
            at += 1
            var members: [(key: Range<Int>, value: Node)] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                at += 1
                return .object(range: start..<at, members: [], close: at - 1)
            }
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
                at += 1
                guard let member = value() else { return nil }
                members.append((key, member))
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ",") {
                    at += 1
                    continue
                }
                guard bytes[at] == UInt8(ascii: "}") else { return nil }
                at += 1
                return .object(range: start..<at, members: members, close: at - 1)
            }
        }

        mutating func array() -> Node? {
            let start = at
            at += 1
            // An array of scalars (a span table's column) keeps no elements: it cannot hold a field.
            var elements: [Node]? = nil
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                at += 1
                return .array(range: start..<at, elements: [])
            }
            var onlyScalars = true
            while true {
                guard let element = value() else { return nil }
                if case .scalar = element, onlyScalars {
                    // Nothing kept while every element is a scalar.
                } else {
                    if onlyScalars {
                        // Elements so far were scalars: read them again to keep them.
                        onlyScalars = false
                        let end = at
                        at = start + 1
                        var kept: [Node] = []
                        while at < end {
                            guard let again = value() else { return nil }
                            kept.append(again)
                            skipSpace()
                            if at < end, bytes[at] == UInt8(ascii: ",") { at += 1 }
                        }
                        elements = kept
                        at = end
                    } else {
                        elements?.append(element)
                    }
                }
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ",") {
                    at += 1
                    continue
                }
                guard bytes[at] == UInt8(ascii: "]") else { return nil }
                at += 1
                return .array(range: start..<at, elements: elements)
            }
        }
    }
}
