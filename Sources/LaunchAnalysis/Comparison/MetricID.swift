/// What a comparison compares: a launch's total, one of its phases, a
/// budgeted span, or the CPU time of the process tree — typed from the edge on, spelt as text only where text is read
/// or written (`--gate`, the budget file's `gate`, JSON, terminal).
///
/// The spellings are those of every report: a total is its phase's name
/// (`timeToFirstFrame`), a phase `phase:<name>` (`phase:didFinishLaunching`), a span
/// `span:<name>` (`span:DecodeCatalog`).
///
/// ```swift
/// MetricID(parsing: "phase:didFinishLaunching")  // .phase(.didFinishLaunching)
/// MetricID.span("DecodeCatalog").description    // "span:DecodeCatalog"
/// ```
public enum MetricID: Sendable, Hashable, CustomStringConvertible {
    /// A launch's total, the primary metric: `timeToFirstFrame`, `timeToBackgroundReady`, `timeToReady`.
    case total(Phase)
    /// A phase besides the total: `phase:didFinishLaunching`.
    case phase(Phase)
    /// A span a budget names: `span:DecodeCatalog`.
    case span(String)
    /// The user and system CPU time of the launched process tree (`--metric cpu`): `cpuTime`.
    case cpuTime

    /// Reads a spelling; nil when it names no phase there is (a span may have any name but an empty one).
    public init?(parsing text: String) {
        if text.hasPrefix("phase:") {
            guard let phase = Phase(rawValue: String(text.dropFirst(6))) else { return nil }
            self = .phase(phase)
        } else if text.hasPrefix("span:") {
            guard text.count > 5 else { return nil }
            self = .span(String(text.dropFirst(5)))
        } else if text == LaunchMetric.cpuMetricName {
            self = .cpuTime
        } else if let phase = Phase(rawValue: text) {
            self = .total(phase)
        } else {
            return nil
        }
    }

    /// The one spelling: `timeToFirstFrame`, `phase:didFinishLaunching`, `span:DecodeCatalog`.
    public var description: String {
        switch self {
        case .total(let phase): return phase.rawValue
        case .phase(let phase): return "phase:" + phase.rawValue
        case .span(let name): return "span:" + name
        case .cpuTime: return LaunchMetric.cpuMetricName
        }
    }

    /// Every spelling a total or phase can have (spans are named by budgets): what a
    /// misspelt phase is matched against before anything is measured.
    public static var phaseSpellings: [String] {
        Phase.allCases.map { MetricID.total($0).description } + Phase.allCases.map { MetricID.phase($0).description }
    }
}
