/// Checks the metric names a comparison is asked to gate on (`--gate`, the
/// budget file's `gate`) against the metrics it has.
///
/// A misspelt name would otherwise gate nothing and let the comparison pass; the
/// check names it with the nearest existing name, as swift-format's
/// `checkForUnrecognizedRules` does. ``GatedMetrics/all`` is always known.
///
/// ```swift
/// let unknown = GateNames.firstUnknown(.listed([.span("Nope")]), available: [.total(.timeToFirstFrame), .span("DecodeCatalog")])
/// // (name: "span:Nope", nearest: "span:DecodeCatalog")
/// ```
public enum GateNames {
    /// The first listed metric not in `available`, spelt, with the
    /// available name nearest to it by ``Spelling/editDistance(_:_:)`` (the first of
    /// equals, however far: a gate name is picked from a short list; nil when
    /// `available` is empty); nil when every name is known.
    ///
    /// ```swift
    /// GateNames.firstUnknown(.listed([.span("Nope")]), available: [.span("Decode")])?.nearest  // "span:Decode"
    /// ```
    public static func firstUnknown(_ requested: GatedMetrics, available: [MetricID]) -> (
        name: String, nearest: String?
    )? {
        guard case .listed(let ids) = requested, let unknown = ids.first(where: { !available.contains($0) }) else {
            return nil
        }
        let name = unknown.description
        let spellings = available.map(\.description)
        let nearest = spellings.min { Spelling.editDistance(name, $0) < Spelling.editDistance(name, $1) }
        return (name, nearest)
    }
}
