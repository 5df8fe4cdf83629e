/// The instruction gate's part in a comparison (`--metric instructions`).
///
/// Instruction counts are decided by their own rule (``InstructionGate``: a
/// regression when the median shift is above both the minimum effect ε and the
/// spread identical launches showed in this session, a pass only when it is below
/// ε by more than that spread, inconclusive otherwise). That rule
/// has no p-value, so it stays outside Holm's correction across the time metrics;
/// its verdict is combined with theirs afterwards: a regression on either is a
/// regression, then inconclusive on either is inconclusive, then improvement, then pass.
extension ComparisonReport {
    /// The instruction comparison of the two sides, or why there is none.
    static func instructionComparison(
        base: MeasurementReport, head: MeasurementReport, minimumEffect: Double
    ) -> Result<InstructionComparison, ComparisonError> {
        do {
            guard
                let compared = try InstructionComparison(
                    base: base.profile.instructions, head: head.profile.instructions, minimumEffect: minimumEffect)
            else {
                let missing = base.profile.instructions == nil ? "base" : "head"
                return .failure(
                    .noMetricInCommon(
                        "the \(missing) side has no instruction count (--metric instructions needs "
                            + "launches counted under valgrind on both sides)"))
            }
            return .success(compared)
        } catch {
            guard case .tooFewLaunches(let baseCount, let headCount, let needed) = error else {
                fatalError("unreachable")
            }
            return .failure(
                .tooFewLaunches(
                    LaunchShortfall(
                        subject: "instructions", baseCount: baseCount, headCount: headCount, neededPerSide: needed,
                        reason: "the instruction gate needs \(needed) counted launches per side to measure their spread"
                    )))
        }
    }

    /// The time metrics' verdict combined with the instruction gate's.
    static func combined(_ verdict: MetricVerdict, _ status: InstructionGate.Decision.Status) -> MetricVerdict {
        let instructions: MetricVerdict =
            switch status {
            case .regression: .regression
            case .improvement: .improvement
            case .pass: .pass
            case .inconclusive: .inconclusive
            }
        if verdict == .regression || instructions == .regression { return .regression }
        if verdict == .inconclusive || instructions == .inconclusive { return .inconclusive }
        if verdict == .improvement || instructions == .improvement { return .improvement }
        return .pass
    }

    /// The metrics whose own verdict is the overall one: what decided the outcome
    /// (for a pass, every gated metric). `instructions` names the instruction gate.
    static func deciders(_ metrics: [MetricComparison], instructions: InstructionComparison?, verdict: MetricVerdict)
        -> [String]
    {
        let gated = metrics.filter(\.gated)
        var names = gated.filter { $0.verdict == verdict }.map(\.name)
        if let status = instructions?.decision.status, combined(.pass, status) == verdict {
            names.append(LaunchMetric.instructions.rawValue)
        }
        if names.isEmpty, verdict == .pass {
            names = gated.map(\.name) + (instructions == nil ? [] : [LaunchMetric.instructions.rawValue])
        }
        return names
    }

    /// `outcome` (the time metrics' own) with the instruction gate's decision taken into account.
    static func outcome(_ outcome: ReportOutcome, instructions: InstructionComparison, timeMetricsGated: Bool)
        -> ReportOutcome
    {
        switch outcome.status {
        case .interrupted, .failedRuns, .noRuns, .incomparable:
            return outcome
        default:
            break
        }
        let summary = instructions.summary
        switch instructions.decision.status {
        case .regression:
            if outcome.status == .regression {
                return ReportOutcome(
                    status: .regression, exitCode: .gateFailed, reason: outcome.reason + "; and in " + summary)
            }
            return ReportOutcome(status: .regression, exitCode: .gateFailed, reason: "regression in " + summary)
        case .inconclusive:
            if outcome.status == .regression { return outcome }
            let why =
                "inconclusive: " + summary
                + ((instructions.decision.passBelow ?? 0) <= 0
                    ? " — identical launches differed by the minimum effect or more: "
                        + "fix what varies between launches (the environment, files the program changes) or raise the minimum effect"
                    : " — the change is within the spread of identical launches of the minimum effect: too close to call")
            return ReportOutcome(
                status: .inconclusive, exitCode: .inconclusive,
                reason: outcome.status == .inconclusive ? outcome.reason + "; " + why : why)
        case .improvement, .pass:
            guard outcome.status == .pass else { return outcome }
            if !timeMetricsGated {
                let word = instructions.decision.status == .improvement ? "improvement: " : "no regression: "
                return ReportOutcome(status: .pass, exitCode: .success, reason: word + summary)
            }
            return ReportOutcome(status: .pass, exitCode: .success, reason: outcome.reason + "; " + summary)
        }
    }
}

extension InstructionComparison {
    /// One line: `instructions (main-thread instructions to the first frame): +5.21% (1,160.2 M → 1,220.6 M, medians;
    /// every head launch above every base launch; the least change called one: 1.00%)`.
    public var summary: String {
        func percent(_ fraction: Double, signed: Bool = true) -> String {
            let text = Milliseconds.fixed(abs(fraction) * 100, decimals: 2) + "%"
            return fraction < 0 ? "−" + text : (signed ? "+" : "") + text
        }
        func millions(_ value: Double) -> String { Milliseconds.fixed(value / 1e6, decimals: 2) + " M" }
        let order =
            decision.separated
            ? (decision.shift >= 0
                ? "every head launch above every base launch" : "every head launch below every base launch")
            : "the sides overlap"
        return
            "instructions (\(gatedDescription)): \(percent(decision.shift)) (\(millions(baseMedian)) → \(millions(headMedian)), "
            + "medians; \(order); identical launches differed by up to \(percent(decision.spread, signed: false)); "
            + "the least change called one: \(percent(decision.threshold, signed: false))"
            + (decision.passBelow.map { "; a pass below \(percent($0))" } ?? "") + ")"
    }
}
