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
    /// available name nearest to it by ``Spelling/editDistance(_:_:)`` (the first of
    /// equals, however far: a gate name is picked from a short list; nil when
    /// `available` is empty); nil when every name is known.
    ///
    /// ```swift
    /// GateNames.firstUnknown(["span:Nope"], available: ["span:Decode"])?.nearest  // "span:Decode"
    /// ```
    public static func firstUnknown(_ requested: [String], available: [String]) -> (name: String, nearest: String?)? {
        let known = Set(available)
        guard let name = requested.first(where: { $0 != all && !known.contains($0) }) else { return nil }
        let nearest = available.min { Spelling.editDistance(name, $0) < Spelling.editDistance(name, $1) }
        return (name, nearest)
    }
}
