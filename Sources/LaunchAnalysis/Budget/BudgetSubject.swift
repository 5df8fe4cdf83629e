/// What a budget limit applies to: a phase (the launch total or a hook), or a
/// named span on the main thread.
///
/// Written in reports as the phase id (`timeToFirstFrame`, `didFinishLaunching`)
/// or `span:<name>`.
public enum BudgetSubject: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A phase: ``Phase/timeToFirstFrame``, ``Phase/timeToReady``,
    /// ``Phase/timeToBackgroundReady``, or a hook's phase.
    case phase(Phase)
    /// The main-thread spans with this name, summed per run.
    case span(String)

    /// `timeToFirstFrame`, `willFinishLaunching`, or `span:DecodeCatalog`.
    public var description: String {
        switch self {
        case .phase(let phase): return phase.rawValue
        case .span(let name): return "span:\(name)"
        }
    }

    /// Reads the text form ``description`` writes.
    public init?(_ text: String) {
        if text.hasPrefix("span:") {
            self = .span(String(text.dropFirst("span:".count)))
        } else if let phase = Phase(rawValue: text) {
            self = .phase(phase)
        } else {
            return nil
        }
    }

    /// Decodes the text form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let subject = BudgetSubject(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown budget subject '\(text)'")
        }
        self = subject
    }

    /// Encodes the text form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
