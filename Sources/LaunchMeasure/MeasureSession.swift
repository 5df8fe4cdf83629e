import LaunchAnalysis
import LaunchTracing

/// Runs a whole measurement: warm-up and counted launches, one after another,
/// each turned into a ``RunRecord``, collected with what the runs told about the
/// program and the machine. It decides nothing about them: LaunchAnalysis
/// assembles the report (``MeasurementReport/init(plan:collected:budget:)``).
///
/// A launch that crashes, fails, hangs or leaves an unreadable trace is recorded
/// as a failed run and the others go on. A launch that cannot even be started
/// after others were measured ends the session, and the outcome keeps what was
/// measured and says why it stopped. Ctrl-C (SIGINT) stops it after the current
/// launch; a second Ctrl-C, SIGTERM or SIGHUP ends the current launch at once
/// (that launch is not counted). The signal handlers are put back afterwards.
///
/// ```swift
/// let collected = try MeasureSession.run(request, progress: nil)
/// let report = MeasurementReport(plan: request.plan, collected: collected, budget: BudgetResolution())
/// ```
public enum MeasureSession {
    /// The trace file each launch writes, in its own directory.
    public static let traceFileName = "trace.lptrace"

    /// Measures `request`.
    ///
    /// - Throws: ``LaunchError`` when the first launch cannot be started (nothing
    ///   was measured). Later failures end the session with
    ///   ``LaunchAnalysis/CollectedLaunches/stopReason`` set instead, so no measured run is lost.
    public static func run(_ request: MeasureRequest, progress: (any MeasureProgress)?) throws(LaunchError) -> CollectedLaunches {
        let scope = SessionScope(progress: progress)
        defer { scope.end() }
        let side = LaunchSide(request: request)
        guard try scope.setUp(request.commands) else {
            return side.collected(in: scope, stopSignal: scope.stopSignal)
        }
        var collected: CollectedLaunches
        do { collected = try measure(side, scope: scope, progress: progress) } catch {
            _ = scope.cleanUp(request.commands)
            throw error
        }
        if let failure = scope.cleanUp(request.commands) { collected.stopReason = collected.stopReason ?? failure }
        return collected
    }

    /// The launches of a measurement, between its setup and its cleanup.
    private static func measure(
        _ side: LaunchSide, scope: SessionScope, progress: (any MeasureProgress)?
    ) throws(LaunchError) -> CollectedLaunches {
        let plan = side.request.plan
        if plan.mode == .hot {
            try side.launchHot(scope: scope)
            let counted = side.countedRuns
            for run in side.runs {
                progress?.runFinished(run, side: nil, counted: run.isWarmup ? 0 : run.index, of: counted, warmup: run.isWarmup, elapsedSeconds: scope.elapsed)
            }
        } else {
            for _ in 0..<(plan.warmup + plan.runs) {
                if scope.stopRequested { break }  // a stop signal that came between launches
                let record = try side.launchNext(scope: scope)
                if side.stopReason != nil { break }
                if let record {
                    progress?.runFinished(record, side: nil, counted: record.index, of: plan.runs, warmup: record.isWarmup, elapsedSeconds: scope.elapsed)
                }
                if scope.stopRequested { break }
            }
        }
        var collected = side.collected(in: scope, stopSignal: scope.stopSignal)
        if plan.countedLaunches > 0, collected.stopReason == nil, !scope.stopRequested {
            let counted = CountedLaunches.run([side.request], sides: nil, timed: [side.runs], scope: scope, progress: progress)
            collected = side.collected(in: scope, stopSignal: scope.stopSignal, stopReason: counted.stopReason)
            collected.countedRuns = counted.runs[0]
        }
        progress?.finished()
        return collected
    }

    /// One process launch: one record, or, in hot mode, one per launch inside it.
    static func launch(
        _ request: MeasureRequest, label: String, index: Int, isWarmup: Bool, hotLaunches: Int, isSubreaper: Bool
    ) throws(LaunchError) -> ([RunRecord], Trace?) {
        // A new folder of its own for each launch; the paths the program is given are absolute.
        let directory = try request.runs.makeSubdirectory(label)
        let tracePath = directory.path + "/" + traceFileName
        let plan = request.plan
        var environment = [
            LaunchContract.Variable.trace: tracePath,
            LaunchContract.Variable.exitAfterLaunch: "1",
        ]
        if hotLaunches > 0 { environment[LaunchContract.Variable.hotLaunches] = String(hotLaunches) }
        if let options = plan.launchOptions { environment[LaunchContract.Variable.launchOptions] = options.json }
        let ready = ReadyDefault.launchCondition(plan.ready)
        let perLaunch = plan.timeoutSeconds
        let launchRequest = LaunchRequest(
            executable: request.executable, arguments: request.arguments, extraEnvironment: environment,
            ready: ready, timeoutSeconds: perLaunch * Double(max(1, hotLaunches)), workDirectory: directory.path,
            workDirectoryDescriptor: directory.descriptor, readyGraceSeconds: perLaunch * Double(max(1, hotLaunches)),
            pseudoTerminal: request.pseudoTerminal)
        defer { withExtendedLifetime(directory) {} }  // its descriptor stays open for the launch
        // Orphans adopted before the launch (a server --setup or --prepare started) are not its leftovers.
        if isSubreaper, Platform.hasChildren { Platform.spareAdoptedOrphans() }
        let outcome = try Launcher.launch(launchRequest)

        var record = RunRecord(
            index: index, isWarmup: isWarmup, status: .ok, stdoutPath: outcome.stdoutPath,
            stderrPath: outcome.stderrPath)
        record.readyAddress = outcome.readyAddress
        record.cpuTime = outcome.cpuTime
        record.wallClock = Platform.wallClockAnchor(at: outcome.spawnNanoseconds)
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
        switch outcome.termination {
        case .exited(0), .stoppedAtReady:
            if outcome.readyNanoseconds == nil {
                record.status = .neverReady
                record.problem = "exited before it was ready (\(ready) never held)"
            } else if outcome.readyIsExitFallback, !ReadyDefault.acceptsExitFallback(plan.ready) {
                record.status = .neverReady
                record.problem = "exited without reporting \(ready) (does it call LaunchTracer.mark(.firstFrame), or run LaunchHarness? else use --ready exit)"
            }
        case .interrupted:
            record.status = .interrupted
            record.problem = "ended when launchprof was told to stop"
        case .exited(let code):
            record.status = .failedExit
            record.exitCode = code
            record.problem = "exited with code \(code)"
        case .signaled(let signal):
            record.status = .crashed
            record.signal = signal
            record.problem = outcome.termination.description
        case .timedOut:
            record.status = .timedOut
            record.problem = "not ready within \(formatSeconds(launchRequest.timeoutSeconds)) s (timed out; its process group was killed)"
            if case .stdout = ready, !request.pseudoTerminal, Platform.fileSize(outcome.stdoutPath) == 0 {
                record.problem! += "; it wrote nothing on stdout: a program whose stdout is not a terminal may buffer it "
                    + "(--pty gives it a terminal; python3 -u, or stdbuf -oL before the command, make it write each line at once)"
            }
        }
        if record.status != .ok, record.status != .interrupted {
            record.problem! += Self.stderrExcerpt(outcome.stderrPath)
        }
        // The launch made the ready file (it did not exist before: Launcher checks); the next one must make it again.
        if case .file(let path) = ready { Platform.remove(path) }
        // What the launch left running outside its process group: orphans (found by
        // parentage, as their subreaper) and descendants carrying its spawn stamp.
        let leftovers = Platform.endLeftovers(
            stampEntry: "\(LaunchContract.Variable.spawnNanoseconds)=\(outcome.spawnStamp)", isSubreaper: isSubreaper)
        if leftovers > 0 { record.leftoverProcesses = leftovers }

        // The trace, when the program wrote one. The program could have put anything
        // there: a link is not followed, and only a regular file of bounded size is read.
        var trace: Trace?
        var timelines: [LaunchTimeline] = []
        if Platform.entryExists(tracePath) {
            record.tracePath = tracePath
            do {
                let read = try Trace.read(from: tracePath, followingLinks: false)
                _ = try read.checkedAppBudget()  // a budget out of range makes this run's trace invalid
                trace = read
                timelines = LaunchTimeline.build(from: read)
                // A trace that disagrees with launchprof's own clock is not counted.
                if let reason = TraceCheck.problem(timelines, trace: read, outcome: outcome) {
                    timelines = []
                    trace = nil
                    if record.status == .ok || record.status == .neverReady {
                        record.status = .invalidTrace
                        record.problem = reason
                    }
                }
            } catch {
                if record.status == .ok {
                    record.status = .invalidTrace
                    record.problem = "\(error)"
                }
            }
        }

        // The trace proves the program is instrumented: say what it did not do.
        if record.status == .neverReady, let timeline = timelines.first {
            switch ready {
            case .firstFrame where timeline.isBackground:
                record.problem = "a launch into the background draws no first frame (leave --ready out, or use --ready exit)"
            case .firstFrame:
                record.problem = "the app exited without drawing its first frame"
            case .fullyDrawn:
                record.problem = "the app never called reportFullyDrawn() (measure to first-frame instead)"
            default:
                break
            }
        }

        guard hotLaunches > 0 else {
            if let timeline = timelines.first {
                record.timeline = timeline
                if record.status == .ok {
                    record.timeToReadyMs = ReadyDefault.timeToReady(
                        given: plan.ready, firstFrameMs: record.milliseconds(.timeToFirstFrame),
                        backgroundReadyMs: record.milliseconds(.timeToBackgroundReady), observedMs: record.timeToReadyMs)
                }
            }
            return ([record], trace)
        }

        // Hot mode: launch 0 is the process's own launch, not a hot one.
        guard record.status == .ok, timelines.count > 1 else {
            if record.status == .ok {
                record.status = .invalidTrace
                record.problem = timelines.isEmpty
                    ? "hot mode needs an instrumented program (one that links LaunchHarness); no launch hooks were traced"
                    : "the program ran its hooks once, not \(hotLaunches) more times (LAUNCHPROF_HOT_LAUNCHES)"
            }
            return ([record], trace)
        }
        var records: [RunRecord] = []
        for timeline in timelines.dropFirst() {
            let warm = timeline.launchIndex <= plan.warmup
            var hot = record
            hot.index = warm ? 0 : timeline.launchIndex - plan.warmup
            hot.isWarmup = warm
            hot.timeline = timeline
            hot.timeToReadyMs = hot.milliseconds(.timeToFirstFrame)
            hot.timeToExitMs = nil
            hot.cpuTime = nil  // the hot launches share one process
            records.append(hot)
        }
        return (records, trace)
    }

    /// ": <last line of stderr>" when the program said something, else "".
    static func stderrExcerpt(_ path: String) -> String {
        guard let tail = Platform.tail(of: path, maxBytes: 512) else { return "" }
        let last = tail.split(separator: "\n").last?.trimmingWhitespace() ?? ""
        return last.isEmpty ? "" : " (stderr: \(last.prefix(200)))"
    }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}
