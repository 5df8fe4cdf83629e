/// Checks the metric names a comparison is asked to gate on (`--gate`, the
/// budget file's `gate`) against the metrics it has.
///
/// A misspelt name would otherwise gate nothing and let the comparison pass; the
/// check names it with the nearest existing name, as swift-format's
/// `checkForUnrecognizedRules` does. `all` is always known.
///
/// ```swift
/// let unknown = GateNames.firstUnknown(["phase:didFinishLaunchnig"], available: ["timeToFirstFrame", "phase:didFinishLaunching"])
/// // (name: "phase:didFinishLaunchnig", nearest: "phase:didFinishLaunching")
/// ```
public enum GateNames {
    /// The name that means every metric.
    public static let all = "all"

    /// The first requested name that is neither `all` nor in `available`, with the
    /// available name nearest to it by edit distance (the first of equals; nil when
    /// `available` is empty); nil when every name is known.
    ///
    /// ```swift
    /// GateNames.firstUnknown(["span:Nope"], available: ["span:Decode"])?.nearest  // "span:Decode"
    /// ```
    public static func firstUnknown(_ requested: [String], available: [String]) -> (name: String, nearest: String?)? {
        let known = Set(available)
        guard let name = requested.first(where: { $0 != all && !known.contains($0) }) else { return nil }
        let nearest = available.min { editDistance(name, $0) < editDistance(name, $1) }
        return (name, nearest)
    }

    /// The Levenshtein distance between `a` and `b`, in characters: the fewest
    /// insertions, deletions and substitutions that turn one into the other.
    ///
    /// ```swift
    /// GateNames.editDistance("kitten", "sitting")  // 3
    /// ```
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
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
