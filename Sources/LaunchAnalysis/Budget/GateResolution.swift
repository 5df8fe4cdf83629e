import LaunchTracing

/// The one place a comparison's gate is decided, beside ``BudgetResolution``: the
/// gated metrics, the significance level and the minimum effect, each from the
/// command line first, then the budget file, then ``GateSettings``'s defaults; and
/// the session SD a user states (`--session-sd`), which only the command line gives.
///
/// The command line's values arrive already read as numbers (their text is checked
/// where it is read); this type decides which source wins.
///
/// ```swift
/// let gate = GateResolution(gateNames: nil, alpha: 0.05)
/// let (metrics, settings) = try gate.resolve(budget: budgetFile?.budget)
/// ```
public struct GateResolution: Sendable, Equatable {
    /// `--gate`, split into names; nil when not given (the budget file's `gate` then applies).
    public var gateNames: [String]?
    /// `--alpha`; nil when not given.
    public var alpha: Double?
    /// `--min-effect`, percent; nil when not given.
    public var minimumEffectPercent: Double?
    /// `--min-effect-ms`; nil when not given.
    public var minimumEffectMs: Double?
    /// `--session-sd` as a standard deviation of log time; nil when not given.
    public var sessionSD: Double?

    /// What the command line gave; nil for what it did not.
    public init(
        gateNames: [String]? = nil, alpha: Double? = nil, minimumEffectPercent: Double? = nil,
        minimumEffectMs: Double? = nil,
        sessionSD: Double? = nil
    ) {
        self.gateNames = gateNames
        self.alpha = alpha
        self.minimumEffectPercent = minimumEffectPercent
        self.minimumEffectMs = minimumEffectMs
        self.sessionSD = sessionSD
    }

    /// Where a bad gate name came from, for the error's first words.
    public enum NameSource: Sendable, Equatable {
        /// `--gate`.
        case commandLine
        /// The budget file's `gate`.
        case budgetFile
    }

    /// The gated metrics and settings: the command line over `budget` over the defaults.
    ///
    /// - Throws: the source of the names and the ``GatedMetrics`` parsing error when a
    ///   name is not one a comparison can gate on.
    public func resolve(budget: LaunchBudget?) throws -> (gate: GatedMetrics, settings: GateSettings) {
        var settings = GateSettings()
        if let alpha = budget?.alpha { settings.alpha = alpha }
        if let percent = budget?.minimumEffectPercent { settings.minimumEffectPercent = percent }
        if let ms = budget?.minimumEffectMs { settings.minimumEffectMs = ms }
        if let alpha { settings.alpha = alpha }
        if let minimumEffectPercent { settings.minimumEffectPercent = minimumEffectPercent }
        if let minimumEffectMs { settings.minimumEffectMs = minimumEffectMs }
        let names = gateNames ?? budget?.gate ?? []
        do {
            return (try GatedMetrics(parsing: names), settings)
        } catch {
            throw Problem(source: gateNames != nil ? .commandLine : .budgetFile, reason: "\(error)")
        }
    }

    /// A gate name that is not one a comparison can gate on, and where it came from.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Where the names came from.
        public var source: NameSource
        /// What is wrong, in a few words.
        public var reason: String
        /// `--gate: …` or `the budget file's gate: …`.
        public var description: String {
            (source == .commandLine ? "--gate" : "the budget file's gate") + ": " + reason
        }
    }

    /// The evidence a comparison across sessions may use from these options (``SessionEvidence``).
    public var sessionEvidence: SessionEvidence { SessionEvidence(statedSD: sessionSD) }
}
