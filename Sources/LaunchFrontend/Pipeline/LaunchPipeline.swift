import LaunchAnalysis
import LaunchMeasure
import LaunchReports

/// The one path every command that launches takes: a plan, a session, a
/// report, the output.
///
/// ```
/// options ─▶ ProgramTarget ─▶ MeasurementPlan ─▶ SessionRequest ┐
///                                     RunsFolder (new, beside the old) ┤
///                                                                     ▼
///   LaunchSession: .single ─▶ MeasureSession ──────────┐
///                  .interleaved ─▶ CompareSession ─────┤  (ComparisonRule looks once per stage;
///                                                      │   the report reuses its last look)
///                  .againstStored ─▶ MeasureSession ───┤
///                                                      ▼
///               MeasurementReport / ComparisonReport ─▶ ReportOutput ─▶ files, terminal, exit code
/// ```
///
/// `measure`, an interleaved `compare` and a `compare --baseline` are its
/// three sessions; `calibrate` runs its interleaved session once per round and
/// keeps the reports to itself; `report`, `merge` and `export` use only
/// ``ReportOutput``.
struct LaunchPipeline {
    /// The shared options, already checked.
    let options: LaunchCommandOptions
    /// The command line, as the report records it.
    let commandLine: [String]

    /// What is launched, and how the sides are compared.
    enum LaunchSession {
        /// One program: `measure`.
        case single(SessionRequest)
        /// Base and head alternately, stage by stage, until `rule` has a verdict: `compare`.
        case interleaved(base: SessionRequest, head: SessionRequest, rule: ComparisonPlan)
        /// A stored base against a head launched now: `compare --baseline`; the two are
        /// different sessions, tested with `history`, the sessions stored beside the
        /// baseline, when it holds enough (``SessionComparison``).
        case againstStored(MeasurementReport, head: SessionRequest, rule: ComparisonPlan, history: SessionSpread?)
    }

    // MARK: Plan

    /// The plan of `target`'s launches in the report `name` (unless `--name`
    /// was given); `runs` replaces `--runs` when given.
    func plan(_ target: ProgramTarget, name: String, runs: Int? = nil) -> MeasurementPlan {
        var plan = options.plan(name: name, command: target.command, commandLine: commandLine)
        if let runs { plan.runs = runs }
        return plan
    }

    /// The plan of one side of the interleaved comparison `comparison`: `<comparison> (base)`, all stages' launches.
    func plan(_ target: ProgramTarget, side: ComparisonSide, of comparison: ComparisonPlan) -> MeasurementPlan {
        var plan = plan(target, name: comparison.name, runs: comparison.stages.last!)
        plan.name = "\(comparison.name) (\(side.rawValue))"
        return plan
    }

    /// The request to launch `target` under `plan`, its launches' folders made in `folder`.
    func request(_ target: ProgramTarget, plan: MeasurementPlan, in folder: OwnedDirectory) -> SessionRequest {
        target.request(plan: plan, runs: folder, options: options)
    }

    /// Checks, before any launch, that `--metric instructions` can count each of
    /// `targets` here (a binary with debug information valgrind refuses needs objcopy).
    func checkCounting(_ targets: ProgramTarget...) throws {
        guard let counter = options.instructionCounter else { return }
        for target in targets {
            do { try counter.checkCanCount(target.executable) } catch {
                throw UsageError("--metric instructions: \(error)")
            }
        }
    }

    // MARK: Session and report

    /// Runs `session` with its launches in `runs` and returns its report. A
    /// session that cannot start discards `runs` and throws one line.
    func document(of session: LaunchSession, in runs: RunsFolder) throws -> ReportDocument {
        do {
            switch session {
            case .single(let request):
                let collected = try MeasureSession.run(request, progress: options.progressLine())
                return .measurement(report(request.plan, collected))
            case .interleaved(let base, let head, let plan):
                var rule = ComparisonRule(plan: plan, base: base.plan, head: head.plan, budget: options.budget)
                let compared = try CompareSession.run(
                    base: base, head: head, stages: plan.stages, progress: options.progressLine(), rule: &rule)
                // The report reuses the last look: its launches, and so its decision.
                return .comparison(
                    rule.report(
                        base: compared.base, head: compared.head,
                        stagesRun: compared.stagesRun))
            case .againstStored(let stored, let head, var rule, let history):
                let collected = try MeasureSession.run(head, progress: options.progressLine())
                let headReport = report(head.plan, collected)
                // Base and head are different sessions: the gate tests them session by session, with the baseline's history.
                rule.sessionEvidence.history = history
                return .comparison(
                    ComparisonReport(
                        plan: rule, base: stored, head: headReport, stagesRun: 1, createdAt: collected.finishedAt))
            }
        } catch {
            runs.discard()
            throw error
        }
    }

    /// The report of one side's launches under `plan`, judged against the budget.
    func report(_ plan: MeasurementPlan, _ collected: CollectedLaunches) -> MeasurementReport {
        MeasurementReport(plan: plan, collected: collected, budget: options.budget)
    }

    // MARK: Output

    /// Shows and saves `document` (see ``ReportOutput``) in place of `old` (read before the launches), and returns its exit code.
    func write(
        _ document: ReportDocument, baseline: Baseline? = nil, runs: RunsFolder? = nil,
        replacing old: ReportSummary? = nil
    ) -> ExitCode {
        ReportOutput.write(document, options: options, baseline: baseline, runs: runs, replacing: old)
    }
}
