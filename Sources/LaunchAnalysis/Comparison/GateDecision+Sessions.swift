// The regression gate across sessions: one metric's session-level test (see SessionComparison).

extension GateDecision {
    /// One session's launches of one metric, summarised: the median of its log
    /// times, how many launches, and the variance of that median within the session.
    struct SessionSummary {
        var session: String
        var machine: String?
        var logMedian: Double
        var launches: Int
        /// (π/2)·σ̂²/n with σ̂ = 1.4826·MAD of the log times: the median's variance; 0 for one launch.
        var medianVariance: Double

        /// The summaries of `values` (finite ones) grouped by `sessions`, in order of first appearance.
        static func of(_ values: [Double], sessions: [String], machines: [String]?) -> [SessionSummary] {
            var order: [String] = []
            var logs: [String: [Double]] = [:]
            var machineOf: [String: String] = [:]
            for (index, value) in values.enumerated() where value.isFinite && sessions.indices.contains(index) {
                let session = sessions[index]
                if logs[session] == nil {
                    order.append(session)
                    if let machines, machines.indices.contains(index) { machineOf[session] = machines[index] }
                }
                logs[session, default: []].append(GateDecision.logarithm(value))
            }
            return order.map { session in
                let values = logs[session]!
                let median = Summary.median(values)
                var variance = 0.0
                if values.count > 1 {
                    let sigma = 1.4826 * Summary.median(values.map { abs($0 - median) })
                    variance = Double.pi / 2 * sigma * sigma / Double(values.count)
                }
                return SessionSummary(
                    session: session, machine: machineOf[session], logMedian: median, launches: values.count,
                    medianVariance: variance)
            }
        }
    }
}

extension GateDecision.Statistics {
    /// Replaces the launch-level tests by the session-level test when the sides do not
    /// share their one session (``SessionComparison``); leaves them when they do.
    mutating func testSessions(
        metric: String, baseMs: [Double], headMs: [Double], sessions: GateDecision.Sessions,
        machines: GateDecision.Machines?,
        evidence: SessionEvidence
    ) {
        guard !sessions.shareOneSession else { return }
        let base = GateDecision.SessionSummary.of(baseMs, sessions: sessions.base, machines: machines?.base)
        let head = GateDecision.SessionSummary.of(headMs, sessions: sessions.head, machines: machines?.head)
        guard !base.isEmpty, !head.isEmpty else { return }
        guard let test = Self.sessionTest(metric: metric, base: base, head: head, evidence: evidence) else {
            self.sessions = SessionComparison(source: .none, baseSessions: base.count, headSessions: head.count)
            // No estimate: nothing may be claimed, so no p-value enters Holm's steps.
            pRegression = 1
            pImprovement = 1
            pPass = 1
            return
        }
        let e = GateDecision.logEffect(effect)
        let t = { (x: Double) -> Double in
            guard test.standardError > 0, test.standardError.isFinite else {
                return x > 0 ? .infinity : x < 0 ? -.infinity : 0
            }
            return x / test.standardError
        }
        let cdf = { (x: Double) in StudentT.cdf(t(x), degreesOfFreedom: test.degreesOfFreedom) }
        shift = test.difference
        pGreater = 1 - cdf(test.difference)
        pRegression = e.isFinite ? 1 - cdf(test.difference - e) : 1
        pImprovement = e.isFinite ? cdf(test.difference + e) : 1
        pPass = e.isFinite ? cdf(test.difference - e) : 1
        methods = (.studentT, .studentT, .studentT)
        let difference = test.difference
        let standardError = test.standardError
        let nu = test.degreesOfFreedom
        interval = { level in
            let q = StudentT.quantile(1 - level, degreesOfFreedom: nu)
            guard q.isFinite else { return (-.infinity, .infinity) }
            return (difference - q * standardError, difference + q * standardError)
        }
        self.sessions = SessionComparison(
            source: test.source, baseSessions: base.count, headSessions: head.count, estimatedFrom: test.estimatedFrom,
            sessionSDPercent: test.sessionSD.map { 100 * (Platform.exponential($0) - 1) }, degreesOfFreedom: nu)
    }

    /// The session-level difference, its standard error and degrees of freedom, or nil with no estimate.
    struct SessionTest {
        var source: SessionComparison.Source
        var difference: Double
        var standardError: Double
        var degreesOfFreedom: Double
        var estimatedFrom: Int
        var sessionSD: Double?
    }

    /// The first estimate of ``SessionComparison``'s order that these sessions and `evidence` allow.
    static func sessionTest(
        metric: String, base: [GateDecision.SessionSummary], head: [GateDecision.SessionSummary],
        evidence: SessionEvidence
    ) -> SessionTest? {
        let mean = { (values: [Double]) in values.reduce(0, +) / Double(values.count) }
        let variance = { (values: [Double]) -> Double in
            guard values.count > 1 else { return 0 }
            let center = mean(values)
            return values.reduce(0) { $0 + ($1 - center) * ($1 - center) } / Double(values.count - 1)
        }
        let baseMedians = base.map(\.logMedian)
        let headMedians = head.map(\.logMedian)
        let difference = mean(headMedians) - mean(baseMedians)
        // Machines of a fleet, each with both sides: the difference per machine, tested over the machines.
        let machines = Set(base.compactMap(\.machine)).intersection(head.compactMap(\.machine))
        if machines.count >= 3 {
            let perMachine = machines.sorted().map { machine in
                mean(head.filter { $0.machine == machine }.map(\.logMedian))
                    - mean(base.filter { $0.machine == machine }.map(\.logMedian))
            }
            let spread = variance(perMachine)
            return SessionTest(
                source: .fleet, difference: mean(perMachine),
                standardError: (spread / Double(perMachine.count)).squareRoot(),
                degreesOfFreedom: Double(perMachine.count - 1), estimatedFrom: perMachine.count,
                sessionSD: (spread / 2).squareRoot())
        }
        // Two sessions or more a side: Welch's test of the session medians.
        if base.count >= 2, head.count >= 2 {
            let partBase = variance(baseMedians) / Double(base.count)
            let partHead = variance(headMedians) / Double(head.count)
            let squared = partBase + partHead
            let nu =
                squared * squared
                / (partBase * partBase / Double(base.count - 1) + partHead * partHead / Double(head.count - 1))
            let pooled =
                (variance(baseMedians) * Double(base.count - 1) + variance(headMedians) * Double(head.count - 1))
                / Double(base.count + head.count - 2)
            return SessionTest(
                source: .sessions, difference: difference, standardError: squared.squareRoot(),
                degreesOfFreedom: nu.isFinite && nu > 0 ? nu : Double(base.count + head.count - 2),
                estimatedFrom: base.count + head.count, sessionSD: pooled.squareRoot())
        }
        let sideWeights =
            base.map { (summary: $0, k: Double(base.count)) } + head.map { (summary: $0, k: Double(head.count)) }
        // The baseline's history: its sessions' medians' variance, with what these sides' own noise adds beyond the history's.
        if let history = evidence.history?.sessions(of: metric), history.count >= 3 {
            let logs = history.map { GateDecision.logarithm($0.medianMs) }
            let spread = variance(logs)
            let historyWithin = mean(history.map(\.medianVariance))
            var squared = spread * (1 / Double(base.count) + 1 / Double(head.count))
            for side in sideWeights {
                squared += max(0, side.summary.medianVariance - historyWithin) / (side.k * side.k)
            }
            return SessionTest(
                source: .history, difference: difference, standardError: squared.squareRoot(),
                degreesOfFreedom: Double(history.count - 1), estimatedFrom: history.count,
                sessionSD: spread.squareRoot())
        }
        if let sd = evidence.statedSD, sd.isFinite, sd >= 0 {
            var squared = sd * sd * (1 / Double(base.count) + 1 / Double(head.count))
            for side in sideWeights { squared += side.summary.medianVariance / (side.k * side.k) }
            return SessionTest(
                source: .stated, difference: difference, standardError: squared.squareRoot(),
                degreesOfFreedom: .infinity,
                estimatedFrom: 0, sessionSD: sd)
        }
        return nil
    }
}
