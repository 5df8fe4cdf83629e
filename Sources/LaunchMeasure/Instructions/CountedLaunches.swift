import LaunchAnalysis
import LaunchTracing

/// The launches counted under valgrind (`--metric instructions`), made in the
/// same session as the timed ones, after them (between `--setup` and `--cleanup`,
/// each after `--prepare`), and kept apart from them (``CollectedLaunches/countedRuns``):
/// their times are valgrind's. Each is made as a timed launch is: on the session's
/// ``LaunchPlatform``, from the one launch request (``MeasureSession/launchRequest(_:in:kind:)``),
/// orphans a `--prepare` adopted spared, diagnosed and worded in one place (``LaunchProblem/isCounted``).
///
/// What changes counts between identical launches is held fixed: each launch's
/// folder is `counted-NNN` (the same length for every launch, so the trace path
/// handed down is too; `LAUNCHPROF_SPAWN_NS` is written at a fixed width by the
/// launcher), hash seeds are fixed and the sampler is off
/// (``InstructionCounter/environment(existing:)``). Each launch runs to its exit
/// (callgrind writes its counts then), or, for a traced program that keeps running,
/// to its ready mark (the tracer has callgrind dump its count there, writes its trace
/// and says `flushed`; launchprof then ends it, and the count is the dumps up to the
/// mark, made on the main thread, ``InstructionCounter/collect(output:processID:toMark:)``), with the timeout
/// scaled by ``slowdownAllowance``. Two sides alternate in ABBA order, like timed launches.
/// Where valgrind itself fails, the run's problem says which valgrind, what it failed
/// on and what to do (``InstructionCounter/valgrindFailure(output:processID:program:)``).
enum CountedLaunches {
    /// How many times a timed launch's timeout a counted one gets (``LaunchMetric/countedSlowdownAllowance``).
    static let slowdownAllowance = LaunchMetric.countedSlowdownAllowance

    /// The folder of counted launch `index`: `counted-001`, the same length for every launch up to 999.
    static func label(_ index: Int) -> String {
        let digits = String(index)
        return "counted-" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    /// The milestone a counted launch's count ends at: the ready mark, when the tracer wrote
    /// its trace there (`flushed` on the ready pipe) and so may have been ended after it; nil
    /// when it ran to its exit (a program that reports no mark, or the harness, which writes
    /// its trace at its own end). Decided by what the program said, not by which came first,
    /// its exit or launchprof's signal, so identical launches count to the same point.
    static func countedMark(_ outcome: LaunchResult, ready: ReadyCondition) -> Milestone? {
        guard let milestone = ready.milestone,
            outcome.readyLines.contains(where: { $0.announcement?.word == .flushed })
        else { return nil }
        return milestone
    }

    /// The folder callgrind writes launch `index`'s counts into: `counts-001`.
    static func countsLabel(_ index: Int) -> String {
        "counts-" + label(index).dropFirst("counted-".count)
    }

    /// Makes each request's ``MeasurementPlan/countedLaunches`` counted launches on the
    /// session's platform, `sides` naming them for the progress line and the stop
    /// (nil for a measurement). Returns each side's records, and why counting stopped
    /// early when it did (nothing measured is lost).
    static func run(
        _ requests: [SessionRequest], sides: [ComparisonSide]?, timed: [[RunRecord]], scope: SessionScope,
        progress: (any MeasureProgress)?
    ) -> (runs: [[RunRecord]], stop: SessionStop?) {
        var records = [[RunRecord]](repeating: [], count: requests.count)
        guard let counter = requests.first?.instructionCounter else { return (records, nil) }
        let count = requests.map(\.plan.countedLaunches).max() ?? 0
        guard count > 0 else { return (records, nil) }
        // How each side's program runs under valgrind, prepared once per executable.
        var routes: [CountingRoute] = []
        var prepared: [String: CountingRoute] = [:]
        for request in requests {
            if let route = prepared[request.executable] {
                routes.append(route)
                continue
            }
            do {
                let route = try counter.prepare(
                    program: request.executable, in: request.runs.path, namedFolder: request.runs.finalPath)
                prepared[request.executable] = route
                routes.append(route)
            } catch {
                return (records, SessionStop.cannotCount(error))
            }
        }
        let timedSeconds = timed.flatMap { $0 }.filter { !$0.isWarmup && $0.status == .ok }
            .compactMap { $0.timeToExitMs ?? $0.timeToReadyMs }.map { $0 / 1000 }
        progress?.countingStarts(
            launches: count * requests.count,
            timedLaunchSeconds: timedSeconds.isEmpty ? nil : Summary.median(timedSeconds))
        let started = scope.elapsed
        var made = 0
        for round in 0..<count {
            // ABBA, as the timed launches.
            let order = round % 2 == 0 ? Array(requests.indices) : Array(requests.indices.reversed())
            for which in order {
                if scope.stopRequested { return (records, nil) }
                let request = requests[which]
                let side = sides?[which]
                let what = SessionStop.Launch.counted(round + 1)
                if let prepare = request.commands.prepare {
                    do { try scope.platform.runCommand(prepare, role: .prepare) } catch {
                        guard case .failed(let failure) = error else { return (records, nil) }  // a stop signal
                        var stop = SessionStop.prepareFailed(failure, before: what)
                        stop.side = side
                        return (records, stop)
                    }
                    if scope.stopRequested { return (records, nil) }  // a Ctrl-C during the prepare: no launch after it
                }
                let record: RunRecord
                do {
                    record = try launch(request, counter: counter, route: routes[which], index: round + 1, scope: scope)
                } catch {
                    var stop = SessionStop.couldNotStart(what, error)
                    stop.side = side
                    return (records, stop)
                }
                guard record.status != .interrupted else { return (records, nil) }
                // A counted launch that failed is a failed run, worded as one; one that succeeded must have behaved as the timed ones.
                if record.status == .ok,
                    let reason = CountedLaunchCheck.difference(counted: record, timed: timed[which], in: request.runs)
                {
                    var stop = SessionStop.cannotCount(
                        .countedLaunchDiffers(launch: "counted launch \(round + 1)", reason: reason))
                    stop.side = side
                    return (records, stop)
                }
                records[which].append(record)
                made += 1
                progress?.countedRunFinished(
                    record, side: side?.rawValue, counted: made, of: count * requests.count,
                    elapsedSeconds: scope.elapsed - started)
            }
        }
        return (records, nil)
    }

    /// One counted launch of `request`, its executable run under callgrind at its own
    /// path (`route`: as it is, or with its debug information hidden from valgrind), made
    /// as a timed launch is (``MeasureSession/launchRequest(_:in:kind:)``, ``MeasureSession/start(_:scope:)``)
    /// and read by the counter once it has exited.
    static func launch(
        _ request: SessionRequest, counter: InstructionCounter, route: CountingRoute, index: Int, scope: SessionScope
    ) throws(LaunchError) -> RunRecord {
        let directory = try request.runs.makeSubdirectory(label(index))
        // Callgrind writes into a folder of its own, made before the launch and named nowhere
        // in the program's environment: not beside the trace it is told about.
        let counts = try request.runs.makeSubdirectory(countsLabel(index))
        defer { withExtendedLifetime((directory, counts)) {} }  // their descriptors stay open for the launch
        let output = counts.path + "/callgrind"
        let command = route.wrapping(
            counter.command(program: request.executable, arguments: request.arguments, output: output),
            program: request.executable, workingDirectoryVariable: ProcessEnvironment.value("PWD"))
        let launchRequest = MeasureSession.launchRequest(request, in: directory, kind: .counted(command: command))
        let outcome = try MeasureSession.start(launchRequest, scope: scope)

        var record = MeasureSession.observedRecord(
            outcome, in: directory, index: index, isWarmup: false, platform: scope.platform)
        // Ready where its count ends: at the ready mark when the tracer wrote the trace there, else at its exit.
        let mark = countedMark(outcome, ready: launchRequest.ready)
        if mark == nil { record.timeToReadyMs = record.timeToExitMs ?? record.timeToReadyMs }
        if outcome.flushUnanswered { record.flushUnanswered = true }
        var problem = MeasureSession.diagnose(outcome, launchRequest: launchRequest, given: request.plan.ready)
        if problem == nil {
            do {
                record.instructions = try counter.collect(
                    output: output, namedOutput: counts.finalPath(of: "callgrind"), processID: outcome.processID,
                    toMark: mark)
            } catch {
                problem = LaunchProblem(.countsMissing(reason: "\(error)"))
            }
        }
        // Valgrind's own failure (its log names it) says more than the exit it caused.
        if let diagnosis = problem?.diagnosis, diagnosis.isValgrindsEnding,
            let why = counter.valgrindFailure(
                output: output, namedOutput: counts.finalPath(of: "callgrind"), processID: outcome.processID,
                program: request.executable)
        {
            problem = LaunchProblem(.countsMissing(reason: why))
        }
        problem?.isCounted = true
        record.apply(problem)
        if Platform.entryExists(MeasureSession.tracePath(in: directory)) {
            record.tracePath = directory.finalPath(of: MeasureSession.traceFileName)
        }
        let leftovers = scope.platform.endLeftovers(
            spawnNanoseconds: outcome.spawnNanoseconds, isSubreaper: scope.isSubreaper)
        if leftovers > 0 { record.leftoverProcesses = leftovers }
        if outcome.childrenCutOff { record.childrenCutOff = true }
        return record
    }
}

extension LaunchDiagnosis {
    /// An ending valgrind itself may have caused (its log then says what it failed on):
    /// a failed exit, a crash, or no count written.
    var isValgrindsEnding: Bool {
        switch self {
        case .failedExit, .crashed, .countsMissing: return true
        default: return false
        }
    }
}
