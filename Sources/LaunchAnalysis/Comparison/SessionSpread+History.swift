// A baseline's stored history of sessions: what a comparison across sessions estimates their variance from.

extension SessionSpread {
    /// One stored session: its id and its summary of every time metric it measured.
    ///
    /// ```swift
    /// let session = SessionSpread.StoredSession(session: "5f0c…", metrics: ["timeToReady": .init(medianMs: 41.2, launches: 20, medianVariance: 1e-4)])
    /// ```
    public struct StoredSession: Sendable, Equatable, Codable {
        /// The session's id (``MeasurementReport/session``).
        public var session: String
        /// Each metric's summary, by the metric's name (`timeToFirstFrame`, `cpuTime`, `phase:…`, `span:…`).
        public var metrics: [String: Metric]

        /// A stored session.
        public init(session: String, metrics: [String: Metric]) {
            self.session = session
            self.metrics = metrics
        }

        /// One metric of one session: the median, the launches it is of, and the
        /// variance of the median of its log times within the session ((π/2)·σ̂²/n).
        public struct Metric: Sendable, Equatable, Codable {
            /// The session's median, milliseconds.
            public var medianMs: Double
            /// How many launches the median is of (0: not recorded, in a version-1 file).
            public var launches: Int
            /// The variance of the median's logarithm within the session (0: not recorded).
            public var medianVariance: Double

            /// A summary.
            public init(medianMs: Double, launches: Int, medianVariance: Double) {
                self.medianMs = medianMs
                self.launches = launches
                self.medianVariance = medianVariance
            }

            /// The summary of one session's `values` (milliseconds; those not finite left out), nil when none is.
            public init?(values: [Double]) {
                let finite = values.filter(\.isFinite)
                guard !finite.isEmpty else { return nil }
                let summary = GateDecision.SessionSummary.of(finite, sessions: finite.map { _ in "" }, machines: nil)[0]
                self.init(
                    medianMs: Summary.median(finite), launches: finite.count, medianVariance: summary.medianVariance)
            }
        }
    }

    /// The stored sessions' summaries of `metric`, in order: the ``history`` when
    /// there is one, else (version 1) the ``sessionMediansMs`` of separate sessions
    /// when they are of `metric`, with no within-session variance recorded.
    ///
    /// ```swift
    /// spread.sessions(of: "timeToFirstFrame").count  // 5 after calibrate --rounds 5
    /// ```
    public func sessions(of metric: String) -> [StoredSession.Metric] {
        if let history { return history.compactMap { $0.metrics[metric] } }
        guard source == .sessions, metric == self.metric else { return [] }
        return sessionMediansMs.map { StoredSession.Metric(medianMs: $0, launches: 0, medianVariance: 0) }
    }

    /// This history with `session` appended (the oldest dropped past ``maximumSessions``),
    /// its median of ``metric`` added to ``sessionMediansMs`` too.
    public func appending(_ session: StoredSession) -> SessionSpread {
        var next = SessionSpread(metric: metric, sessionMediansMs: sessionMediansMs, source: .sessions)
        next.history = Array(((history ?? []) + [session]).suffix(Self.maximumSessions))
        if let median = session.metrics[metric]?.medianMs {
            next.sessionMediansMs = Array((sessionMediansMs + [median]).suffix(Self.maximumSessions))
        }
        return next
    }

    /// The stored session of `report`'s successful runs: every time metric a comparison
    /// of it can have (the primary, the other phases, CPU time, the budget's spans), nil
    /// when it has no successful run; with the primary metric's name.
    public static func storedSession(of report: MeasurementReport) -> (session: StoredSession, primary: String)? {
        // CPU time beside wall time when the report has it, else wall time alone (a report from before CPU time).
        guard
            let compared =
                (try? ComparisonMetrics(base: report, head: report, gate: .listed([]), metrics: [.wall, .cpu]))
                ?? (try? ComparisonMetrics(base: report, head: report, gate: .listed([]), metrics: [.wall]))
        else { return nil }
        var metrics: [String: StoredSession.Metric] = [:]
        for series in compared.series { metrics[series.name] = StoredSession.Metric(values: series.baseMs) }
        return (StoredSession(session: report.session ?? "unrecorded", metrics: metrics), compared.primary)
    }
}
