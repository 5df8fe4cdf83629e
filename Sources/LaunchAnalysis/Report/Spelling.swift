/// Near misses: the candidate a mistyped name most likely meant.
///
/// ```swift
/// Spelling.nearest(to: "DecodeCatalg", among: ["DecodeCatalog", "ReadCatalog"])   // "DecodeCatalog"
/// ```
public enum Spelling {
    /// The candidate closest to `text` by edit distance, when it is close enough
    /// (at most 2 edits, or a third of `text`'s length); nil otherwise.
    public static func nearest(to text: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(text, $0)) }.sorted { $0.1 < $1.1 }
        guard let best = scored.first, best.1 <= max(2, text.count / 3) else { return nil }
        return best.0
    }

    /// The Levenshtein distance between two strings.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
