import Foundation

/// Finds a key that one object of a JSON document holds twice.
///
/// `JSONDecoder` keeps the first of two equal keys, Python's `json` and `jq`
/// the last: a reviewer reading a report or a spread file with them would see
/// another value than the one launchprof acts on. Every reader of a stored
/// file launchprof makes therefore refuses a duplicate key, named by its path
/// (`runs[3].status`). Keys are compared after their escapes are decoded
/// (`"a"` and `"\u0061"` are one key).
///
/// Cost: one pass over the bytes; a key is copied only when it has an escape,
/// or when its object has more than ``linearLimit`` keys.
///
/// ```swift
/// JSONDuplicateKeys.find(in: Data(#"{"a":{"b":1,"b":2}}"#.utf8))   // "a.b"
/// ```
enum JSONDuplicateKeys {
    /// Up to this many keys an object's keys are compared one by one; beyond, through a set.
    static let linearLimit = 16

    /// One step of the path to the value being read.
    private enum Step {
        case key(Key?)
        case index(Int)
    }

    /// A key of an open object: where its bytes are in the document, or its
    /// bytes decoded when it has an escape.
    private enum Key {
        case range(Range<Int>)
        case decoded([UInt8])
    }

    /// The keys seen in one open object, and a set of their bytes once there are many.
    private struct Keys {
        var list: [Key] = []
        var set: Set<[UInt8]> = []
    }

    /// The path of the first key an object holds twice (`runs[3].status`, or
    /// `status` at the top), or nil when there is none. A document that is not
    /// JSON is scanned as far as it can be, for the decoder to refuse.
    static func find(in data: Data) -> String? {
        data.withUnsafeBytes { raw in find(in: raw.bindMemory(to: UInt8.self)) }
    }

    /// ``find(in:)-(Data)`` over a buffer.
    static func find(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        func contents(_ key: Key) -> [UInt8] {
            switch key {
            case .range(let range): return Array(bytes[range])
            case .decoded(let decoded): return decoded
            }
        }
        func equal(_ a: Key, _ b: Key) -> Bool {
            switch (a, b) {
            case (.range(let x), .range(let y)): return x.count == y.count && bytes[x].elementsEqual(bytes[y])
            default: return contents(a) == contents(b)
            }
        }
        /// Adds `key` to `keys`; false when the object already had it.
        func insert(_ key: Key, into keys: inout Keys) -> Bool {
            if keys.set.isEmpty, keys.list.count < linearLimit {
                if keys.list.contains(where: { equal($0, key) }) { return false }
                keys.list.append(key)
                return true
            }
            if keys.set.isEmpty { keys.set = Set(keys.list.map(contents)) }
            return keys.set.insert(contents(key)).inserted
        }
        var path: [Step] = []
        // Per open container: nil for an array, the keys seen for an object.
        var open: [Keys?] = []
        var at = 0
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "{"):
                open.append(Keys())
                path.append(.key(nil))
                at += 1
            case UInt8(ascii: "["):
                open.append(nil)
                path.append(.index(0))
                at += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !open.isEmpty { open.removeLast(); path.removeLast() }
                at += 1
            case UInt8(ascii: ","):
                if case .index(let index)? = path.last { path[path.count - 1] = .index(index + 1) }
                at += 1
            case UInt8(ascii: "\""):
                let (end, hasEscape) = stringEnd(bytes, from: at)
                var next = end
                while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: ":"), open.last.map({ $0 != nil }) == true {
                    let range = (at + 1)..<max(at + 1, end - 1)
                    let key: Key = hasEscape ? .decoded(unescaped(Array(bytes[range]))) : .range(range)
                    path[path.count - 1] = .key(key)
                    if !insert(key, into: &open[open.count - 1]!) { return text(path.map { step in
                        if case .key(let key?) = step { return .key(.decoded(contents(key))) }
                        return step
                    }) }
                }
                at = end
            default:
                at += 1
            }
        }
        return nil
    }

    /// Where the string starting at `start` (its opening quote) ends, just past
    /// its closing quote, and whether it has an escape.
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, hasEscape: Bool) {
        var at = start + 1, hasEscape = false
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "\\"): hasEscape = true; at += 2
            case UInt8(ascii: "\""): return (at + 1, hasEscape)
            default: at += 1
            }
        }
        return (bytes.count, hasEscape)
    }

    /// A key's bytes with its escapes decoded, as the decoder reads it.
    private static func unescaped(_ raw: [UInt8]) -> [UInt8] {
        let quoted = [UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]
        guard let decoded = try? JSONDecoder().decode(String.self, from: Data(quoted)) else { return raw }
        return Array(decoded.utf8)
    }

    /// `runs[3].status`, with control characters in keys escaped, at most 200 characters.
    private static func text(_ path: [Step]) -> String {
        var text = ""
        for step in path {
            switch step {
            case .key(let key):
                guard case .decoded(let bytes)? = key else { continue }
                let name = String(decoding: bytes, as: UTF8.self).unicodeScalars.map {
                    $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0)
                }.joined()
                text += text.isEmpty ? name : "." + name
            case .index(let index): text += "[\(index)]"
            }
        }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
