/// The strings a report's span tables point into — each span's name and file,
/// each wait target's name — each written once per report (`spanStrings`).
///
/// A ``MeasurementReport`` collects them before it encodes its runs and makes
/// them ``current`` while it does, and while it decodes them; a ``SpanTable``
/// encoded or decoded with no current strings carries its own.
///
/// Not thread-safe: one encoding or decoding uses it, on one thread.
public final class SpanStrings: @unchecked Sendable {
    /// The strings, in the order first met: a table's cell is an index into them.
    public private(set) var strings: [String]
    private var indexes: [String: Int] = [:]
    /// The strings looked up so far, by their representation (``StringIdentity``).
    private var identities = StringIdentity.Table()

    /// The strings of a report being encoded or decoded on this task or thread, if any.
    @TaskLocal public static var current: SpanStrings?

    /// Strings read from a report, to look indexes up in.
    public init(_ strings: [String] = []) {
        self.strings = strings
    }

    /// The strings of every span in `runs`, in order of first appearance.
    public convenience init(collecting runs: [RunRecord]) {
        self.init()
        for timeline in runs.lazy.compactMap(\.timeline) {
            for spans in [timeline.mainThreadSpans, timeline.otherSpans] { collect(spans) }
        }
    }

    /// Adds the strings of `spans` not yet held.
    func collect(_ spans: [SpanRecord]) {
        for span in spans {
            _ = index(of: span.name)
            _ = index(of: span.file)
            for target in span.waitTargets ?? [] {
                _ = index(of: target.kind.rawValue)
                _ = index(of: target.name)
            }
        }
    }

    /// The index of `string`, added at the end when it is new.
    ///
    /// A string looked up before in the same representation — the same
    /// storage, as every span's name read from one report shares, or the same
    /// few bytes held inline — is found without hashing its text.
    public func index(of string: String) -> Int {
        if let index = identities.index(of: string) { return index }
        let index = textIndex(of: string)
        // Bounded: where every span has strings of its own (a report built from traces,
        // run by run), later ones are found by their text, as without the table.
        if identities.count < 1024 + 4 * strings.count { identities.insert(string, index: index) }
        return index
    }

    /// The index of `string` by its text, added at the end when it is new.
    private func textIndex(of string: String) -> Int {
        if let index = indexes[string] { return index }
        if indexes.isEmpty && !strings.isEmpty {
            for (index, string) in strings.enumerated() where indexes[string] == nil { indexes[string] = index }
            if let index = indexes[string] { return index }
        }
        strings.append(string)
        indexes[string] = strings.count - 1
        return strings.count - 1
    }

    /// The string at `index`, or nil when the index is out of range.
    public func string(at index: UInt64) -> String? {
        index < UInt64(strings.count) ? strings[Int(index)] : nil
    }
}

/// A string's representation: its two words. Two strings with the same words
/// are the same string (the same storage, or the same bytes held inline);
/// equal strings may still differ in their words, so a miss here proves nothing.
enum StringIdentity {
    /// Strings by their words, each with an index: open addressing, a cheap hash
    /// of the words, at most half full. It holds the strings it was given, so the
    /// storage whose address is in their words is never freed and reused for
    /// another string while it is here.
    struct Table {
        private var slots: [(string: String, index: Int)?] = []
        /// How many strings it holds.
        private(set) var count = 0

        /// True where a string's words can be read (its size is two words).
        private static let isAvailable = MemoryLayout<String>.size == 2 * MemoryLayout<UInt>.size

        @inline(__always)
        private static func words(_ string: String) -> (UInt, UInt) {
            unsafeBitCast(string, to: (UInt, UInt).self)
        }

        @inline(__always)
        private func slot(of words: (UInt, UInt)) -> Int {
            let mixed = (words.0 ^ (words.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
            return Int(truncatingIfNeeded: mixed ^ (mixed >> 29)) & (slots.count - 1)
        }

        /// The index stored with a string of the same words as `string`, if any.
        @inline(__always)
        func index(of string: String) -> Int? {
            guard Self.isAvailable, !slots.isEmpty else { return nil }
            let words = Self.words(string)
            var at = slot(of: words)
            while let entry = slots[at] {
                if Self.words(entry.string) == words { return entry.index }
                at = (at + 1) & (slots.count - 1)
            }
            return nil
        }

        /// Stores `index` for `string`'s words (not already stored).
        mutating func insert(_ string: String, index: Int) {
            guard Self.isAvailable else { return }
            if 2 * (count + 1) > slots.count {
                let old = slots
                slots = Array(repeating: nil, count: max(64, 2 * old.count))
                count = 0
                for case let entry? in old { insert(entry.string, index: entry.index) }
            }
            var at = slot(of: Self.words(string))
            while slots[at] != nil { at = (at + 1) & (slots.count - 1) }
            slots[at] = (string, index)
            count += 1
        }
    }
}
