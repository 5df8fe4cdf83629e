/// How far apart separate sessions of one program measure on this machine: the
/// between-session noise that a comparison against a stored baseline carries and
/// that its within-session test cannot see.
///
/// An interleaved comparison puts base and head in one session, so the load of
/// the moment weighs on both alike. A baseline was measured in another session
/// (minutes or days before, under another load), so even an unchanged program can
/// measure 30 % slower now. A baseline comparison therefore raises ε to the spread
/// when the spread is larger: the head must be slower than the baseline by more
/// than both to be a regression (``GateSettings/betweenSessionPercent``), tested
/// at α as every regression is. A pass still means "slower by less than ε itself",
/// so a session whose noise hides the answer is inconclusive, not a pass.
///
/// The spread is the largest ratio between two sessions' medians, minus one.
/// `calibrate --save-baseline NAME` measures it from its rounds (each round a
/// session) and stores it as `baselines/NAME.spread.json`; without one, a
/// baseline comparison takes the drift it sees within the two sessions it has
/// (``withinSessions(_:metric:blockSize:)``), a smaller allowance.
///
/// ```swift
/// let spread = SessionSpread(metric: "timeToFirstFrame", sessionMediansMs: [400, 412, 395], source: .sessions)
/// spread.percent  // ≈ 4.3: 412 / 395 − 1
/// ```
public struct SessionSpread: Sendable, Equatable, Codable {
    /// How the medians were taken.
    public enum Source: String, Sendable, Codable {
        /// Separate sessions (``calibrate``'s rounds): between-session noise.
        case sessions
        /// Blocks of consecutive launches within the compared sessions: the drift
        /// within a session, a lower bound of the between-session noise.
        case withinSessions = "within-sessions"
    }

    /// The `kind` of a stored spread.
    public static let kind = "session-spread"
    /// Always ``kind``.
    public private(set) var kind = SessionSpread.kind
    /// The metric the medians are of (the primary metric).
    public var metric: String
    /// Each session's (or block's) median, milliseconds, in the order measured.
    public var sessionMediansMs: [Double]
    /// How the medians were taken.
    public var source: Source

    /// A spread of the given medians.
    public init(metric: String, sessionMediansMs: [Double], source: Source) {
        self.metric = metric
        self.sessionMediansMs = sessionMediansMs
        self.source = source
    }

    /// The largest ratio between two medians minus one (max / min − 1, on the
    /// positive finite medians); 0 with fewer than two.
    public var ratio: Double {
        let medians = sessionMediansMs.filter { $0.isFinite && $0 > 0 }
        guard medians.count > 1, let low = medians.min(), let high = medians.max() else { return 0 }
        return high / low - 1
    }

    /// ``ratio`` in percent.
    public var percent: Double { 100 * ratio }

    /// The drift within sessions: each side's values (in run order) cut into
    /// blocks of `blockSize` consecutive launches (a shorter last block joins the
    /// one before), each block's median; the spread is that of the side whose
    /// blocks differ most.
    ///
    /// ```swift
    /// SessionSpread.withinSessions([base, head], metric: "timeToReady").percent
    /// ```
    public static func withinSessions(_ sides: [[Double]], metric: String, blockSize: Int = 5) -> SessionSpread {
        let size = max(blockSize, 1)
        let spreads = sides.map { values -> SessionSpread in
            let finite = values.filter(\.isFinite)
            var medians: [Double] = []
            var start = 0
            while start < finite.count {
                var end = min(start + size, finite.count)
                if finite.count - end < size { end = finite.count }
                medians.append(Summary.median(Array(finite[start..<end])))
                start = end
            }
            return SessionSpread(metric: metric, sessionMediansMs: medians, source: .withinSessions)
        }
        return spreads.max { $0.ratio < $1.ratio } ?? SessionSpread(metric: metric, sessionMediansMs: [], source: .withinSessions)
    }

    /// One line for a report's warnings: the spread, what it was measured from, and that ε is raised by it.
    public var summary: String {
        let measured = source == .sessions
            ? "the between-session spread stored beside the baseline (\(sessionMediansMs.count) sessions)"
            : "the drift within these two sessions (no between-session spread is stored: 'launchprof calibrate --save-baseline' measures one)"
        return "ε is at least \(measured), \(Milliseconds.oneDecimal(percent))% of \(metric): a regression must exceed both"
    }
}
