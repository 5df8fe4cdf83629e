/// The metrics that decide a comparison besides the primary one: every metric,
/// or the ones listed.
///
/// Parsed once from `--gate` or the budget file's `gate` (where `all` is the
/// spelling of ``all``), written back with ``spellings`` (the comparison report's
/// `gate`). A listed name that names no phase there is fails the parse with the
/// nearest phase spelling; a listed metric the comparison does not have fails
/// ``ComparisonMetrics`` with the nearest one it has (``GateNames``).
///
/// ```swift
/// let gate = try GatedMetrics(parsing: ["phase:didFinishLaunching", "span:DecodeCatalog"])
/// gate.contains(.phase(.didFinishLaunching))   // true
/// try GatedMetrics(parsing: ["all"]) == .all      // true
/// ```
public enum GatedMetrics: Sendable, Equatable {
    /// Every metric the comparison has.
    case all
    /// These metrics (none: the primary one alone decides).
    case listed([MetricID])

    /// The spelling of ``all``.
    public static let allSpelling = "all"

    /// Reads the names of `--gate` or a budget file's `gate`: `all` anywhere means ``all``.
    ///
    /// - Throws: ``ComparisonError/unknownGateName(name:nearest:)`` for a name that
    ///   is no total, phase or span spelling, with the nearest phase spelling.
    public init(parsing names: [String]) throws(ComparisonError) {
        if names.contains(Self.allSpelling) {
            self = .all
            return
        }
        var ids: [MetricID] = []
        for name in names {
            guard let id = MetricID(parsing: name) else {
                let nearest = MetricID.phaseSpellings.min {
                    Spelling.editDistance(name, $0) < Spelling.editDistance(name, $1)
                }
                throw .unknownGateName(name: name, nearest: nearest)
            }
            if !ids.contains(id) { ids.append(id) }
        }
        self = .listed(ids)
    }

    /// True when `metric` is gated by this set (the primary metric is gated by every set).
    public func contains(_ metric: MetricID) -> Bool {
        switch self {
        case .all: return true
        case .listed(let ids): return ids.contains(metric)
        }
    }

    /// How many metrics decide, the primary included, when the comparison has at most `available`.
    ///
    /// ```swift
    /// GatedMetrics.all.count(among: 12)                                  // 12
    /// try GatedMetrics(parsing: ["phase:didFinishLaunching"]).count(among: 12)  // 2
    /// ```
    public func count(among available: Int) -> Int {
        switch self {
        case .all: return max(available, 1)
        case .listed(let ids): return 1 + ids.count
        }
    }

    /// The spellings written to reports: `["all"]`, or each listed metric's.
    public var spellings: [String] {
        switch self {
        case .all: return [Self.allSpelling]
        case .listed(let ids): return ids.map(\.description)
        }
    }
}
