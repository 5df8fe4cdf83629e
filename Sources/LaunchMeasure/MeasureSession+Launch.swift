import LaunchAnalysis
import LaunchTracing

/// One process launch, in the steps it takes: the launch request (the
/// environment contract), the launch on the session's platform, the record of
/// what was observed, the diagnosis of how it ended, the trace and what it
/// proves, then one record (or, in hot mode, one per launch inside the process).
extension MeasureSession {
    /// One process launch: one record, or, in hot mode, one per launch inside it.
    static func launch(
        _ request: MeasureRequest, label: String, index: Int, isWarmup: Bool, hotLaunches: Int, scope: SessionScope
    ) throws(LaunchError) -> ([RunRecord], Trace?) {
        // A new folder of its own for each launch; the paths the program is given are absolute.
        let directory = try request.runs.makeSubdirectory(label)
        defer { withExtendedLifetime(directory) {} }  // its descriptor stays open for the launch
        let tracePath = directory.path + "/" + traceFileName
        let launchRequest = Self.launchRequest(request, in: directory, tracePath: tracePath, hotLaunches: hotLaunches)
        let platform = scope.platform
        // Orphans adopted before the launch (a server --setup or --prepare started) are not its leftovers.
        platform.spareAdoptedOrphans(isSubreaper: scope.isSubreaper)
        let outcome = try platform.launch(launchRequest)

        var record = observedRecord(outcome, index: index, isWarmup: isWarmup, platform: platform)
        var problem = diagnose(outcome, launchRequest: launchRequest, given: request.plan.ready)
        // The launch made the ready file (it did not exist before: Launcher checks); the next one must make it again.
        if case .file(let path) = launchRequest.ready { Platform.remove(path) }
        // What the launch left running outside its process group: orphans (found by
        // parentage, as their subreaper) and descendants carrying its spawn stamp.
        let leftovers = platform.endLeftovers(spawnNanoseconds: outcome.spawnNanoseconds, isSubreaper: scope.isSubreaper)
        if leftovers > 0 { record.leftoverProcesses = leftovers }

        let reading = TraceReading(at: tracePath, outcome: outcome)
        if reading.exists { record.tracePath = tracePath }
        problem = reading.revised(problem, ready: launchRequest.ready)
        record.apply(problem)

        guard hotLaunches > 0 else {
            if let timeline = reading.timelines.first {
                record.timeline = timeline
                if record.status == .ok {
                    record.timeToReadyMs = ReadyDefault.timeToReady(
                        given: request.plan.ready, firstFrameMs: record.milliseconds(.timeToFirstFrame),
                        backgroundReadyMs: record.milliseconds(.timeToBackgroundReady), observedMs: record.timeToReadyMs)
                }
            }
            return ([record], reading.trace)
        }
        return (hotRecords(record, timelines: reading.timelines, hotLaunches: hotLaunches, warmup: request.plan.warmup), reading.trace)
    }

    /// The launch as the contract has it: the trace path, exit after the launch,
    /// hot launches and launch options in the environment; the ready condition; the timeouts.
    static func launchRequest(
        _ request: MeasureRequest, in directory: OwnedDirectory, tracePath: String, hotLaunches: Int
    ) -> LaunchRequest {
        let plan = request.plan
        var environment = [
            LaunchContract.Variable.trace: tracePath,
            LaunchContract.Variable.exitAfterLaunch: "1",
        ]
        if hotLaunches > 0 { environment[LaunchContract.Variable.hotLaunches] = String(hotLaunches) }
        if let options = plan.launchOptions { environment[LaunchContract.Variable.launchOptions] = options.json }
        let timeout = plan.timeoutSeconds * Double(max(1, hotLaunches))
        return LaunchRequest(
            executable: request.executable, arguments: request.arguments, extraEnvironment: environment,
            ready: ReadyDefault.launchCondition(plan.ready), timeoutSeconds: timeout, workDirectory: directory.path,
            workDirectoryDescriptor: directory.descriptor, readyGraceSeconds: timeout, pseudoTerminal: request.pseudoTerminal)
    }

    /// The record of what the launcher observed: times, CPU, files; status `ok` until diagnosed.
    static func observedRecord(_ outcome: LaunchResult, index: Int, isWarmup: Bool, platform: any LaunchPlatform) -> RunRecord {
        var record = RunRecord(
            index: index, isWarmup: isWarmup, status: .ok, stdoutPath: outcome.stdoutPath, stderrPath: outcome.stderrPath)
        record.readyAddress = outcome.readyAddress
        record.cpuTime = outcome.cpuTime
        record.wallClock = platform.wallClockAnchor(at: outcome.spawnNanoseconds)
        if let readyAt = outcome.readyNanoseconds {
            record.timeToReadyMs = Double(readyAt.subtractingClamped(outcome.spawnNanoseconds)) / 1e6
        }
        // Exit time only when the program ended by itself (not when launchprof ended it).
        switch outcome.termination {
        case .exited, .signaled:
            record.timeToExitMs = outcome.exitNanoseconds.map { Double($0.subtractingClamped(outcome.spawnNanoseconds)) / 1e6 }
        default:
            break
        }
        return record
    }

    /// How the launch ended, as a diagnosis; nil when it ended well. `given` is the
    /// ready condition asked for (nil: the default, which accepts an exit in its place).
    static func diagnose(_ outcome: LaunchResult, launchRequest: LaunchRequest, given: ReadyCondition?) -> LaunchProblem? {
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
            diagnosis = .crashed(signal: signal, termination: outcome.termination)
        case .timedOut:
            var silent = false
            if case .stdout = ready, !launchRequest.pseudoTerminal { silent = Platform.fileSize(outcome.stdoutPath) == 0 }
            diagnosis = .timedOut(seconds: launchRequest.timeoutSeconds, silentStdout: silent)
        }
        return LaunchProblem(diagnosis, stderrLine: lastLine(ofFile: outcome.stderrPath))
    }

    /// Hot mode: one record per launch inside the process, launch 0 (the process's own) left out.
    static func hotRecords(_ record: RunRecord, timelines: [LaunchTimeline], hotLaunches: Int, warmup: Int) -> [RunRecord] {
        guard record.status == .ok, timelines.count > 1 else {
            var record = record
            if record.status == .ok {
                record.apply(LaunchProblem(timelines.isEmpty ? .hotModeNeedsHooks : .hotLaunchesNotRun(launches: hotLaunches)))
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

/// A launch's trace, read when the program wrote one, and what it changes in the diagnosis.
struct TraceReading {
    /// True when something is at the trace's path.
    var exists = false
    /// The trace, when it was read and agrees with launchprof's clock.
    var trace: Trace?
    /// Its launches (one, or in hot mode one per launch).
    var timelines: [LaunchTimeline] = []
    /// Why the trace is not counted: it could not be read, or it disagrees with the launch.
    var fault: Fault?

    enum Fault: Equatable {
        /// Not read (a link, not a regular file, truncated, out of range): the reader's error.
        case unreadable(String)
        /// Read, but at odds with the launcher's own clock (``TraceCheck``).
        case disagrees(String)
    }

    /// Reads the trace at `path`. The program could have put anything there: a link
    /// is not followed, and only a regular file of bounded size is read.
    init(at path: String, outcome: LaunchResult) {
        guard Platform.entryExists(path) else { return }
        exists = true
        do {
            let read = try Trace.read(from: path, followingLinks: false)
            _ = try read.checkedAppBudget()  // a budget out of range makes this run's trace invalid
            let timelines = LaunchTimeline.build(from: read)
            // A trace that disagrees with launchprof's own clock is not counted.
            if let reason = TraceCheck.problem(timelines, trace: read, outcome: outcome) {
                fault = .disagrees(reason)
                return
            }
            trace = read
            self.timelines = timelines
        } catch {
            fault = .unreadable("\(error)")
        }
    }

    /// `problem` as the trace revises it: a trace at odds with the clock makes an
    /// ok or never-ready run invalid, an unreadable one an ok run; a trace proves
    /// the program instrumented, so a never-ready run is told what it did not do.
    func revised(_ problem: LaunchProblem?, ready: ReadyCondition) -> LaunchProblem? {
        let status = problem?.diagnosis.status ?? .ok
        switch fault {
        case .disagrees(let reason) where status == .ok || status == .neverReady:
            return LaunchProblem(.invalidTrace(reason: reason))
        case .unreadable(let reason) where status == .ok:
            return LaunchProblem(.invalidTrace(reason: reason))
        default:
            break
        }
        guard status == .neverReady, let timeline = timelines.first else { return problem }
        switch ready {
        case .firstFrame where timeline.isBackground: return LaunchProblem(.backgroundDrawsNoFrame)
        case .firstFrame: return LaunchProblem(.noFirstFrame)
        case .fullyDrawn: return LaunchProblem(.neverFullyDrawn)
        default: return problem
        }
    }
}

extension RunRecord {
    /// Takes `problem`'s status, and its text as the run's problem (the exit code or signal as fields too).
    mutating func apply(_ problem: LaunchProblem?) {
        guard let problem else { return }
        status = problem.diagnosis.status
        self.problem = problem.text
        switch problem.diagnosis {
        case .failedExit(let code): exitCode = code
        case .crashed(let signal, _): self.signal = signal
        default: break
        }
    }
}
