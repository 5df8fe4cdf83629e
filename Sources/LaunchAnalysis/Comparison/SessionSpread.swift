import LaunchTracing

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
    /// The version of the stored form this launchprof writes; a file without
    /// one was written before versions were (it reads as version 1).
    public static let currentSchemaVersion = 2
    /// The most sessions a stored spread may name (``calibrate`` takes up to 100 rounds).
    public static let maximumSessions = 1_000
    /// Always ``kind``.
    public private(set) var kind = SessionSpread.kind
    /// The version of the stored form: ``currentSchemaVersion`` for one made here.
    public private(set) var schemaVersion = SessionSpread.currentSchemaVersion
    /// The metric the medians are of (the primary metric).
    public var metric: String
    /// Each session's (or block's) median, milliseconds, in the order measured.
    public var sessionMediansMs: [Double]
    /// How the medians were taken.
    public var source: Source
    /// Each stored session's summary of every time metric (version 2): calibrate's
    /// rounds, then each `measure --save-baseline`, in order; nil in version 1, whose
    /// ``sessionMediansMs`` alone are the history (``sessions(of:)``).
    public var history: [StoredSession]?

    /// A spread of the given medians.
    public init(metric: String, sessionMediansMs: [Double], source: Source) {
        self.metric = metric
        self.sessionMediansMs = sessionMediansMs
        self.source = source
    }

    private enum CodingKeys: String, CodingKey {
        case kind, schemaVersion, metric, sessionMediansMs, source, history
    }

    /// Reads a stored spread; a missing `schemaVersion` is version 1.
    ///
    /// Decoding checks the types only; ``problem`` checks the values.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(String.self, forKey: .kind)
        schemaVersion = try container.decodeIfPresent(Int.self, forKey: .schemaVersion) ?? 1
        metric = try container.decode(String.self, forKey: .metric)
        sessionMediansMs = try container.decode([Double].self, forKey: .sessionMediansMs)
        source = try container.decode(Source.self, forKey: .source)
        history = try container.decodeIfPresent([StoredSession].self, forKey: .history)
    }

    /// What is wrong with a spread read from a file, in a few words; nil when
    /// it is one launchprof could have written: the `kind` ``kind``, a
    /// `schemaVersion` from 1 to ``currentSchemaVersion``, a metric named, and
    /// 1 to ``maximumSessions`` medians, each in the range a measurement gives
    /// (``launchMilliseconds`` for a whole launch, ``smallestPartMilliseconds`` for a phase or span).
    ///
    /// This is the one check of a stored spread: what passes it is what the gate
    /// applies (its session SD, printed with the verdict), so a value no measurement
    /// gives is refused here rather than turned into an absurd SD.
    ///
    /// ```swift
    /// SessionSpread(metric: "timeToReady", sessionMediansMs: [0], source: .sessions).problem
    /// // "sessionMediansMs[0] is 0.0: a median of timeToReady, a whole launch, is from 0.001 to 3600000 ms"
    /// ```
    public var problem: String? {
        guard kind == Self.kind else { return "its kind is '\(kind)', not '\(Self.kind)'" }
        guard schemaVersion >= 1 else { return "schemaVersion \(schemaVersion) is not a version (1 or more)" }
        guard schemaVersion <= Self.currentSchemaVersion else {
            return
                "schemaVersion \(schemaVersion) is newer than this launchprof reads (\(Self.currentSchemaVersion)): update launchprof"
        }
        guard !metric.isEmpty else { return "it names no metric" }
        guard (1...Self.maximumSessions).contains(sessionMediansMs.count) else {
            return "it has \(sessionMediansMs.count) session medians, not 1 to \(Self.maximumSessions)"
        }
        if let index = sessionMediansMs.firstIndex(where: { !Self.launchMilliseconds.contains($0) }) {
            return
                "sessionMediansMs[\(index)] is \(sessionMediansMs[index]): \(Self.rangeText(of: metric, whole: true))"
        }
        guard (history?.count ?? 0) <= Self.maximumSessions else {
            return "its history has \(history?.count ?? 0) sessions, more than \(Self.maximumSessions)"
        }
        for (index, session) in (history ?? []).enumerated() {
            for name in session.metrics.keys.sorted() {
                let metric = session.metrics[name]!
                let whole = isWholeLaunch(name)
                guard whole ? Self.launchMilliseconds.contains(metric.medianMs) : Self.isPartTime(metric.medianMs)
                else {
                    return
                        "history[\(index)].metrics[\"\(name)\"].medianMs is \(metric.medianMs): \(Self.rangeText(of: name, whole: whole))"
                }
                guard metric.medianVariance.isFinite, metric.medianVariance >= 0, metric.medianVariance <= 100 else {
                    return
                        "history[\(index)].metrics[\"\(name)\"].medianVariance is \(metric.medianVariance): a variance of log time from 0 to 100"
                }
                guard metric.launches >= 0, metric.launches <= 10_000_000 else {
                    return
                        "history[\(index)].metrics[\"\(name)\"].launches is \(metric.launches): a count from 0 to 10000000"
                }
            }
        }
        return nil
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
        return spreads.max { $0.ratio < $1.ratio }
            ?? SessionSpread(metric: metric, sessionMediansMs: [], source: .withinSessions)
    }

    /// One line for a report's warnings: the spread, what it was measured from, and that ε is raised by it.
    public var summary: String {
        let measured =
            source == .sessions
            ? "the between-session spread stored beside the baseline (\(sessionMediansMs.count) sessions)"
            : "the drift within these two sessions (no between-session spread is stored: 'launchprof calibrate --save-baseline' measures one)"
        return
            "ε is at least \(measured), \(Milliseconds.oneDecimal(percent))% of \(metric): a regression must exceed both"
    }
}
