extension ReportOutcome {
    /// The outcome of a comparison, by this ladder: stopped early, failed runs
    /// on either side, nothing to compare, then the verdict — regression (exit
    /// 1), inconclusive (exit 3), pass or improvement (exit 0, or 1 for a head
    /// over its budget with `failOverBudget`).
    init(
        comparison sides: (base: MeasurementReport, head: MeasurementReport), metrics: [MetricComparison],
        primary: String,
        verdict: MetricVerdict, problem: String?, failOverBudget: Bool, stagesRun: Int
    ) {
        for (label, side) in [("base", sides.base), ("head", sides.head)] {
            switch side.outcome.status {
            case .interrupted, .failedRuns, .noRuns:
                self.init(
                    status: side.outcome.status, exitCode: side.outcome.exitCode,
                    reason: "\(label): \(side.outcome.reason)")
                return
            default:
                continue
            }
        }
        if let problem {
            self.init(status: .incomparable, exitCode: .error, reason: problem)
            return
        }
        // The metric the reason names: the primary one when it is gated, else the first gated one
        // (`--metric cpu` alone gates CPU time, not the primary wall-time metric).
        let main =
            metrics.first { $0.name == primary && $0.gated } ?? metrics.first(where: \.gated)
            ?? metrics.first { $0.name == primary }
        let changed = metrics.filter { $0.gated && $0.verdict == verdict && $0.verdict != .pass }
        let shown = (verdict == .regression || verdict == .improvement ? changed : []).first ?? main
        let detail = shown.map { $0.summary } ?? ""
        switch verdict {
        case .regression:
            let names = metrics.filter { $0.gated && $0.verdict == .regression }.map(\.name)
            self.init(
                status: .regression, exitCode: .gateFailed,
                reason: "regression in \(names.joined(separator: ", ")): \(detail)")
        case .inconclusive:
            let base = main?.baseMs.count ?? sides.base.profile.successfulRuns
            let head = main?.headMs.count ?? sides.head.profile.successfulRuns
            let launches = base == head ? "\(base) launches per side" : "\(base) base and \(head) head launches"
            // Sides from sessions whose variance nothing estimates, or whose variance is the baseline's
            // stored history: more launches or a quieter machine would not decide
            // (``ComparisonReport/sessionAdvice(metrics:outcome:evidence:)`` says what would).
            let noise =
                main?.sessions.map { [SessionComparison.Source.none, .history].contains($0.source) } ?? false
                ? ""
                : "; the noise seen: base ±\(Self.noise(main?.baseMs)), head ±\(Self.noise(main?.headMs)) — "
                    + "more launches, a quieter machine, or a larger minimum effect"
            self.init(
                status: .inconclusive, exitCode: .inconclusive,
                reason: "inconclusive after \(launches) (\(stagesRun) stage(s)): \(detail)" + noise)
        case .improvement, .pass:
            if failOverBudget, !sides.head.profile.verdict.passed {
                self.init(
                    status: .overBudget, exitCode: .gateFailed,
                    reason: "no regression, but the head is over its budget: \(sides.head.profile.verdict.summary)")
            } else {
                self.init(
                    status: .pass, exitCode: .success,
                    reason: (verdict == .improvement ? "improvement: " : "no regression: ") + detail)
            }
        }
    }

    /// The spread of `values` as a share of their median: 1.4826 × MAD / median, as `3.2%`.
    static func noise(_ values: [Double]?) -> String {
        guard let values, !values.isEmpty else { return "?" }
        let median = Summary.median(values)
        let mad = Summary.median(values.map { abs($0 - median) })
        guard median > 0 else { return "?" }
        return Percent.text(100 * 1.4826 * mad / median, signed: false)
    }
}
