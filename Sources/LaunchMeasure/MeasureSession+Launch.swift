import LaunchAnalysis
import LaunchTracing

/// One process launch, in the steps it takes: the launch request (the
/// environment contract), the launch on the session's platform, the record of
/// what was observed, the diagnosis of how it ended, the trace and what it
/// proves, then one record (or, in hot mode, one per launch inside the process).
extension MeasureSession {
    /// One process launch: one record, or, in hot mode, one per launch inside it.
    static func launch(
        _ request: SessionRequest, label: String, index: Int, isWarmup: Bool, hotLaunches: Int, scope: SessionScope
    ) throws(LaunchError) -> ([RunRecord], Trace?) {
        // A new folder of its own for each launch; the paths the program is given are absolute.
        let directory = try request.runs.makeSubdirectory(label)
        defer { withExtendedLifetime(directory) {} }  // its descriptor stays open for the launch
        let tracePath = tracePath(in: directory)
        let launchRequest = Self.launchRequest(request, in: directory, kind: .timed(hotLaunches: hotLaunches))
        let platform = scope.platform
        let outcome = try start(launchRequest, scope: scope)

        var record = observedRecord(outcome, in: directory, index: index, isWarmup: isWarmup, platform: platform)
        var problem = diagnose(outcome, launchRequest: launchRequest, given: request.plan.ready)
        // The launch made the ready file (it did not exist before: Launcher checks); the next one must make it again.
        if case .file(let path) = launchRequest.ready { Platform.remove(path) }
        // What the launch left running outside its process group: orphans (found by
        // parentage, as their subreaper) and descendants carrying its spawn stamp.
        let leftovers = platform.endLeftovers(
            spawnNanoseconds: outcome.spawnNanoseconds, isSubreaper: scope.isSubreaper)
        if leftovers > 0 { record.leftoverProcesses = leftovers }
        if outcome.childrenCutOff { record.childrenCutOff = true }
        if outcome.flushUnanswered { record.flushUnanswered = true }

        let reading = TraceReading(at: tracePath, naming: directory.finalPath(of: traceFileName), outcome: outcome)
        if reading.exists { record.tracePath = directory.finalPath(of: traceFileName) }
        problem = reading.revised(problem, ready: launchRequest.ready)
        record.apply(problem)

        // A launch a stop signal ended is not in the report (SessionScope leaves it out); its folder,
        // kept for its output, is marked so that no run folder survives that the report does not list.
        if hotLaunches == 0, record.status == .interrupted { markInterrupted(label, in: request.runs) }
        guard hotLaunches > 0 else {
            if let timeline = reading.timelines.first {
                record.timeline = timeline
                if record.status == .ok {
                    record.timeToReadyMs = ReadyDefault.timeToReady(
                        given: request.plan.ready, firstFrameMs: record.milliseconds(.timeToFirstFrame),
                        backgroundReadyMs: record.milliseconds(.timeToBackgroundReady), observedMs: record.timeToReadyMs
                    )
                }
            }
            return ([record], reading.trace)
        }
        return (
            hotRecords(record, timelines: reading.timelines, hotLaunches: hotLaunches, warmup: request.plan.warmup),
            reading.trace
        )
    }

    /// The suffix the folder of a launch a stop signal ended gets: `run-3.interrupted`.
    public static let interruptedSuffix = ".interrupted"

    /// Renames the folder `label` of a launch a stop signal ended to `<label>.interrupted`
    /// (best effort: a folder that cannot be renamed stays as it is).
    static func markInterrupted(_ label: String, in runs: OwnedDirectory) {
        runs.renameEntry(label, to: label + interruptedSuffix)
    }

    /// How a launch is made: timed, or counted under valgrind.
    enum LaunchKind {
        /// Timed, to the ready condition asked for; `hotLaunches` > 0 runs the hooks that many times inside one process.
        case timed(hotLaunches: Int)
        /// Counted under valgrind: `command` (valgrind, its options, then the program and its
        /// arguments) run to its exit, or to the tracer's ready mark, with the environment held
        /// fixed between launches.
        case counted(command: [String])
    }

    /// Where a launch in `directory` writes its trace now (what the program is told);
    /// records name it at `directory.finalPath(of: traceFileName)`.
    static func tracePath(in directory: OwnedDirectory) -> String { directory.path + "/" + traceFileName }

    /// The launch as the contract has it, for timed and counted launches alike: the
    /// trace path, exit after the launch and launch options in the environment
    /// (hot launches for a hot one; fixed hash seeds and no sampler for a counted
    /// one, ``InstructionCounter/environment(existing:)``); the ready condition
    /// (the timed one for a counted launch too: a traced program that keeps running
    /// is ended at its ready mark, where the tracer has callgrind dump its count, and
    /// a program that reports none runs to its exit; `--ready port:`, `stdout:` and
    /// `file:` are refused with instructions before any launch); the
    /// timeouts (a hot launch's times its launches, a counted one's times
    /// ``CountedLaunches/slowdownAllowance``).
    static func launchRequest(_ request: SessionRequest, in directory: OwnedDirectory, kind: LaunchKind)
        -> LaunchRequest
    {
        let plan = request.plan
        // The hot launches are measure's to decide (0 unless asked for): an inherited value would
        // run hooks again in launches counted as single ones.
        var environment = [
            LaunchContract.Variable.trace: tracePath(in: directory),
            LaunchContract.Variable.exitAfterLaunch: "1",
            LaunchContract.Variable.hotLaunches: "0",
        ]
        if let options = plan.launchOptions { environment[LaunchContract.Variable.launchOptions] = options.json }
        let command: [String]
        let ready: ReadyCondition
        let timeout: Double
        switch kind {
        case .timed(let hotLaunches):
            environment[LaunchContract.Variable.hotLaunches] = String(hotLaunches)
            command = [request.executable] + request.arguments
            ready = ReadyDefault.launchCondition(plan.ready)
            timeout = plan.timeoutSeconds * Double(max(1, hotLaunches))
        case .counted(let valgrindCommand):
            let existing = Set(ProcessEnvironment.entries.map { String($0.prefix { $0 != "=" }) })
            environment.merge(InstructionCounter.environment(existing: existing)) { _, fixed in fixed }
            command = valgrindCommand
            ready = ReadyDefault.launchCondition(plan.ready)
            timeout = plan.timeoutSeconds * CountedLaunches.slowdownAllowance
        }
        return LaunchRequest(
            executable: command[0], arguments: Array(command.dropFirst()), extraEnvironment: environment,
            ready: ready, timeoutSeconds: timeout, workDirectory: directory.path,
            workDirectoryDescriptor: directory.descriptor, namedDirectory: directory.finalPath,
            readyGraceSeconds: timeout,
            pseudoTerminal: request.pseudoTerminal)
    }

    /// Starts `launchRequest` on the session's platform and returns when it has ended. Orphans
    /// adopted before it (a server `--setup` or `--prepare` started) are not its leftovers.
    static func start(_ launchRequest: LaunchRequest, scope: SessionScope) throws(LaunchError) -> LaunchResult {
        scope.platform.spareAdoptedOrphans(isSubreaper: scope.isSubreaper)
        return try scope.platform.launch(launchRequest)
    }

    /// The record of what the launcher observed: times, CPU, files (named where
    /// `directory` will be once committed); status `ok` until diagnosed.
    static func observedRecord(
        _ outcome: LaunchResult, in directory: OwnedDirectory, index: Int, isWarmup: Bool,
        platform: any LaunchPlatform
    ) -> RunRecord {
        var record = RunRecord(
            index: index, isWarmup: isWarmup, status: .ok,
            stdoutPath: directory.finalPath(of: LaunchRequest.stdoutFileName),
            stderrPath: directory.finalPath(of: LaunchRequest.stderrFileName))
        record.readyAddress = outcome.readyAddress
        record.cpuTime = outcome.cpuTime
        record.wallClock = platform.wallClockAnchor(at: outcome.spawnNanoseconds)
        if let readyAt = outcome.readyNanoseconds {
            record.timeToReadyMs = Double(readyAt.subtractingClamped(outcome.spawnNanoseconds)) / 1e6
        }
        // Exit time only when the program ended by itself (not when launchprof ended it).
        switch outcome.termination {
        case .exited, .signaled:
            record.timeToExitMs = outcome.exitNanoseconds.map {
                Double($0.subtractingClamped(outcome.spawnNanoseconds)) / 1e6
            }
        default:
            break
        }
        return record
    }

    /// How the launch ended, as a diagnosis; nil when it ended well. `given` is the
    /// ready condition asked for (nil: the default, which accepts an exit in its place).
    static func diagnose(_ outcome: LaunchResult, launchRequest: LaunchRequest, given: ReadyCondition?)
        -> LaunchProblem?
    {
        let ready = launchRequest.ready
        let diagnosis: LaunchDiagnosis
        switch outcome.termination {
        case .exited(0), .stoppedAtReady:
            if outcome.readyNanoseconds == nil {
                diagnosis = .exitedBeforeReady(ready)
            } else if outcome.readyIsExitFallback, !ReadyDefault.acceptsExitFallback(given) {
                diagnosis = .exitedWithoutAnnouncing(ready)
            } else {
                return nil
            }
        case .interrupted:
            return LaunchProblem(.stopped)
        case .exited(let code):
            diagnosis = .failedExit(code: code)
        case .signaled(let signal):
            diagnosis = .crashed(signal: signal, signalName: Platform.signalName(signal))
        case .timedOut:
            var silent = false
            if case .stdout = ready, !launchRequest.pseudoTerminal {
                silent = Platform.fileSize(outcome.stdoutPath) == 0
            }
            diagnosis = .timedOut(seconds: launchRequest.timeoutSeconds, silentStdout: silent)
        }
        return LaunchProblem(diagnosis, stderrLine: lastLine(ofFile: outcome.stderrPath))
    }

    /// Hot mode: one record per launch inside the process, launch 0 (the process's own) left out.
    static func hotRecords(_ record: RunRecord, timelines: [LaunchTimeline], hotLaunches: Int, warmup: Int)
        -> [RunRecord]
    {
        guard record.status == .ok, timelines.count > 1 else {
            var record = record
            if record.status == .ok {
                record.apply(
                    LaunchProblem(timelines.isEmpty ? .hotModeNeedsHooks : .hotLaunchesNotRun(launches: hotLaunches)))
            }
            return [record]
        }
        return timelines.dropFirst().map { timeline in
            let warm = timeline.launchIndex <= warmup
            var hot = record
            hot.index = warm ? 0 : timeline.launchIndex - warmup
            hot.isWarmup = warm
            hot.timeline = timeline
            hot.timeToReadyMs = hot.milliseconds(.timeToFirstFrame)
            hot.timeToExitMs = nil
            hot.cpuTime = nil  // the hot launches share one process
            return hot
        }
    }

    /// The last non-empty line of the file at `path` (its last 512 bytes read), at most 200 characters.
    static func lastLine(ofFile path: String) -> String? {
        guard let tail = Platform.tail(of: path, maxBytes: 512) else { return nil }
        let last = tail.split(separator: "\n").last?.trimmingWhitespace() ?? ""
        return last.isEmpty ? nil : String(last.prefix(200))
    }
}

extension RunRecord {
    /// Takes `problem`'s status, and its text as the run's problem (the exit code or signal as fields too).
    mutating func apply(_ problem: LaunchProblem?) {
        guard let problem else { return }
        status = problem.diagnosis.status
        self.problem = problem.text
        diagnosis = problem
        switch problem.diagnosis {
        case .failedExit(let code): exitCode = code
        case .crashed(let signal, _): self.signal = signal
        default: break
        }
    }
}
