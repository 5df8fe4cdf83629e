/// How a metric whose two sides come from different sessions was judged: the
/// session-level test, what its between-session variance rests on, or why it could
/// not be judged.
///
/// A session is the launches of one launchprof invocation on one machine. Launch
/// time shifts between sessions (the machine's load, its caches, its clock), and a
/// test of launches within two sessions cannot tell that shift from a change of the
/// program: with two stored reports a side of one session each, unchanged builds are
/// called a regression and real regressions pass far more often than α. So when the
/// sides do not share their one session, the gate compares sessions, not launches:
/// each session is summarised by the median of its log times, and the difference d of
/// the sides' mean session medians is tested against ln(1 + ε) with Student's t,
/// its standard error from one of these, in order:
///  - ``Source/fleet``: 3 or more machines with both sides: d per machine, a one-sample
///    t-test over the machines (ν = machines − 1);
///  - ``Source/sessions``: 2 or more sessions on each side: Welch's test of the session
///    medians (Satterthwaite's ν);
///  - ``Source/history``: the baseline's stored history on this machine, 3 or more
///    sessions (calibrate's rounds, each later `--save-baseline`): their session
///    medians' variance s², the standard error √(s²(1/k_base + 1/k_head) + the within-session
///    variance these sides have beyond the history's), ν = sessions − 1;
///  - ``Source/stated``: a session standard deviation the user stated (`--session-sd`),
///    normal (ν = ∞); α holds only if the truth is no larger;
///  - ``Source/none``: no estimate: the metric is inconclusive whatever its shift; the
///    shift and interval shown are the within-session ones, labelled "sessions differ".
///
/// Holm's steps and the look's share of α apply as to the launch-level test.
///
/// ```swift
/// if metric.sessions?.source == SessionComparison.Source.none { print("sessions differ: \(metric.sessions!.fix)") }
/// ```
public struct SessionComparison: Sendable, Equatable, Codable {
    /// What the between-session variance rests on.
    public enum Source: String, Sendable, Codable {
        /// Machines of a fleet, each with both sides.
        case fleet
        /// Two or more sessions on each side.
        case sessions
        /// The baseline's stored history of sessions.
        case history
        /// A session standard deviation the user stated.
        case stated
        /// Nothing: the metric cannot be judged.
        case none
    }

    /// What the estimate rests on.
    public var source: Source
    /// Sessions on the base side.
    public var baseSessions: Int
    /// Sessions on the head side.
    public var headSessions: Int
    /// The sessions (or machines, for a fleet) the variance was estimated from; 0 for none and stated.
    public var estimatedFrom: Int
    /// The between-session standard deviation used, percent (e^σ − 1); nil for none.
    public var sessionSDPercent: Double?
    /// Student's ν of the test; nil for none, +∞ (`"inf"`) for a stated SD.
    public var degreesOfFreedom: Double?

    /// Makes a record of a session-level judgement.
    public init(
        source: Source, baseSessions: Int, headSessions: Int, estimatedFrom: Int = 0, sessionSDPercent: Double? = nil,
        degreesOfFreedom: Double? = nil
    ) {
        self.source = source
        self.baseSessions = baseSessions
        self.headSessions = headSessions
        self.estimatedFrom = estimatedFrom
        self.sessionSDPercent = sessionSDPercent
        self.degreesOfFreedom = degreesOfFreedom
    }

    /// What gives a comparison across sessions an estimate, in one line.
    public static let fix =
        "compare --base and --head interleaved in one session, keep a history with 'calibrate --rounds 5 --save-baseline NAME', "
        + "or gate on --metric instructions"

    /// What the test rests on, in a few words: `3 sessions of the baseline's history`, `sessions differ: no estimate`.
    public var summary: String {
        let sd = sessionSDPercent.map { " (session SD \(Percent.text($0, signed: false)))" } ?? ""
        switch source {
        case .fleet: return "sessions differ: tested across \(estimatedFrom) machines\(sd)"
        case .sessions:
            return "sessions differ: tested across \(baseSessions) base and \(headSessions) head sessions\(sd)"
        case .history: return "sessions differ: tested with \(estimatedFrom) sessions of the baseline's history\(sd)"
        case .stated:
            return "sessions differ: tested with the stated session SD\(sd); α holds only if the true SD is no larger"
        case .none: return "sessions differ: no estimate of the between-session variance, so no verdict"
        }
    }
}

/// What a comparison across sessions may estimate the between-session variance
/// from besides its own sides (``SessionComparison``): the baseline's stored
/// history, and a session standard deviation the user stated.
///
/// ```swift
/// let evidence = SessionEvidence(history: spread, statedSD: nil)
/// ```
public struct SessionEvidence: Sendable, Equatable {
    /// The baseline's stored sessions (``SessionSpread``), when there is one.
    public var history: SessionSpread?
    /// A between-session standard deviation of log time the user stated (`--session-sd`), when given.
    public var statedSD: Double?
    /// The baseline ``history`` is stored beside (`main`), when it came from one: what an
    /// inconclusive reason names, with ``historyPath``, when the history is what decided.
    public var historyBaseline: String?
    /// The file ``history`` was read from, as the reason names it (`baselines/main.spread.json`).
    public var historyPath: String?

    /// Evidence from a stored history and a stated SD, either optional.
    public init(history: SessionSpread? = nil, statedSD: Double? = nil) {
        self.history = history
        self.statedSD = statedSD
    }
}

extension GateDecision {
    /// The session of every value of one metric, parallel to its `baseMs` and
    /// `headMs`: what the gate tells sessions apart by (never by equal metadata).
    ///
    /// ```swift
    /// let sessions = GateDecision.Sessions(base: ["a", "a", "a"], head: ["b", "b", "b"])
    /// sessions.shareOneSession  // false
    /// ```
    public struct Sessions: Sendable, Equatable {
        /// The session of each base value.
        public var base: [String]
        /// The session of each head value.
        public var head: [String]

        /// Sessions for the base and head values, in the same order as the values.
        public init(base: [String], head: [String]) {
            self.base = base
            self.head = head
        }

        /// True when every value of both sides comes from one and the same session.
        public var shareOneSession: Bool {
            let all = Set(base).union(head)
            return all.count <= 1
        }
    }
}
