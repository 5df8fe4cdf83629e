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
        case span(offset: Int, length: Int)
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
            case .span(let offset, let length): return Array(bytes[offset..<(offset + length)])
            case .decoded(let decoded): return decoded
            }
        }
        func equal(_ a: Key, _ b: Key) -> Bool {
            switch (a, b) {
            case (.span(let x, let length), .span(let y, let other)):
                return length == other
                    && (length == 0 || memcmp(bytes.baseAddress! + x, bytes.baseAddress! + y, length) == 0)
            default: return contents(a) == contents(b)
            }
        }
        /// Adds `key` to `keys`; false when the object already had it.
        func insert(_ key: Key, into keys: inout Keys) -> Bool {
            if keys.set.isEmpty, keys.list.count < linearLimit {
                var index = 0
                while index < keys.list.count {
                    if equal(keys.list[index], key) { return false }
                    index += 1
                }
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
        // Byte values as literals (`UInt8(ascii:)` is a call in an unoptimised build, and this loop sees every byte).
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        while at < count {
            switch base[at] {
            case 0x7B:  // {
                open.append(Keys())
                path.append(.key(nil))
                at += 1
            case 0x5B:  // [
                open.append(nil)
                path.append(.index(0))
                at += 1
            case 0x7D, 0x5D:  // } ]
                if !open.isEmpty {
                    open.removeLast()
                    path.removeLast()
                }
                at += 1
            case 0x2C:  // ,
                if case .index(let index)? = path.last { path[path.count - 1] = .index(index + 1) }
                at += 1
            case 0x22:  // "
                let (end, hasEscape) = stringEnd(bytes, from: at)
                var next = end
                while next < bytes.count,
                    bytes[next] == 0x20 || bytes[next] == 0x0A || bytes[next] == 0x0D || bytes[next] == 0x09
                { next += 1 }
                // a key: a string before ':' in an object
                if next < bytes.count, bytes[next] == 0x3A, case .some(.some) = open.last {
                    let length = max(0, end - 1 - (at + 1))
                    let key: Key =
                        hasEscape
                        ? .decoded(unescaped(Array(bytes[(at + 1)..<(at + 1 + length)])))
                        : .span(offset: at + 1, length: length)
                    path[path.count - 1] = .key(key)
                    if !insert(key, into: &open[open.count - 1]!) {
                        return text(
                            path.map { step in
                                if case .key(let key?) = step { return .key(.decoded(contents(key))) }
                                return step
                            })
                    }
                }
                at = end
            default:
                at += 1
                // Past everything that is not structure (numbers, literals, white space) in one tight loop.
                while at < count {
                    let byte = base[at]
                    if byte == 0x22 || byte == 0x2C || byte == 0x7B || byte == 0x7D || byte == 0x5B || byte == 0x5D {
                        break
                    }
                    at += 1
                }
            }
        }
        return nil
    }

    /// Where the string starting at `start` (its opening quote) ends, just past
    /// its closing quote, and whether it has an escape.
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, hasEscape: Bool) {
        guard let base = bytes.baseAddress else { return (bytes.count, false) }
        var from = start + 1
        var hasEscape = false
        // memchr for the next quote; it closes the string unless an odd run of backslashes precedes it.
        while from < bytes.count, let found = memchr(base + from, 0x22, bytes.count - from) {
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var backslashes = 0
            while quote - backslashes - 1 > start, base[quote - backslashes - 1] == 0x5C { backslashes += 1 }
            if !hasEscape, memchr(base + from, 0x5C, quote - from) != nil { hasEscape = true }
            if backslashes % 2 == 0 { return (quote + 1, hasEscape) }
            from = quote + 1
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
