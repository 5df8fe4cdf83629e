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
    public func index(of string: String) -> Int {
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
