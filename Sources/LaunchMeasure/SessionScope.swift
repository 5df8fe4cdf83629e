import LaunchAnalysis
import LaunchTracing

/// What a session of launches sets up once and puts back at the end: the stop
/// signal handlers (Ctrl-C stops after the current launch; a second one, SIGTERM
/// or SIGHUP end it at once), launchprof as the subreaper of what launches leave
/// behind, and the session's clock.
final class SessionScope {
    /// The system, or what a test puts in its place.
    let platform: any LaunchPlatform
    /// True when launchprof became the subreaper of the launches' orphans.
    let isSubreaper: Bool
    private let started = MonotonicClock.nanoseconds

    init(progress: (any MeasureProgress)?, platform: any LaunchPlatform) {
        self.platform = platform
        isSubreaper = platform.beginSession(announcingStop: progress != nil)
    }

    /// Puts the signal handlers back.
    func end() {
        platform.endSession()
    }

    /// Seconds since the session began.
    var elapsed: Double { Double(MonotonicClock.nanoseconds - started) / 1e9 }

    /// True once a stop signal came.
    var stopRequested: Bool { platform.stopRequested }

    /// The machine the session runs on, read once (hostname, OS, CPU from /proc/cpuinfo).
    private(set) lazy var machine = platform.machine()

    /// The stop signal that ended the session early, if one did.
    var stopSignal: Int32? { stopRequested ? platform.lastStopSignal : nil }

    /// Runs `--setup`, when given; false when a stop signal ended it (no launch
    /// is made then, and no cleanup).
    ///
    /// - Throws: ``LaunchError/commandFailed(role:command:problem:)`` when it failed.
    func setUp(_ commands: SessionCommands) throws(LaunchError) -> Bool {
        guard let setup = commands.setup else { return true }
        do { try platform.runCommand(setup, role: .setup) } catch {
            switch error {
            case .failed(let failure): throw failure
            case .interrupted: return false
            }
        }
        return true
    }

    /// Runs `--cleanup`, when given, even after a stop signal; why the session
    /// stopped when it failed (a stop signal during it only ends it).
    func cleanUp(_ commands: SessionCommands) -> SessionStop? {
        guard let cleanup = commands.cleanup else { return nil }
        do { try platform.runCommand(cleanup, role: .cleanup) } catch {
            if case .failed(let failure) = error { return .cleanupFailed(failure) }
        }
        return nil
    }
}

/// One program's launches in a session: the runs so far, and what their traces
/// told about the program (its clock, its budget in code).
final class LaunchSide {
    let request: SessionRequest
    private(set) var runs: [RunRecord] = []
    private var clockSource: TraceClockSource?
    private var appBudget: LaunchBudget?
    /// Why this side's launches ended early, if they did.
    private(set) var stop: SessionStop?
    /// Launches made so far, warm-ups included.
    private(set) var launches = 0

    init(request: SessionRequest) {
        self.request = request
    }

    /// Counted runs so far.
    var countedRuns: Int { runs.filter { !$0.isWarmup }.count }

    /// Makes the next launch (a warm-up while any are left, then counted runs)
    /// and returns its record; nil when it was interrupted or could not be
    /// started (``stop`` then says why).
    ///
    /// - Throws: ``LaunchError`` when the very first launch cannot be started.
    func launchNext(scope: SessionScope) throws(LaunchError) -> RunRecord? {
        let plan = request.plan
        let platform = scope.platform
        let position = launches
        let isWarmup = position < plan.warmup
        let index = isWarmup ? 0 : position - plan.warmup + 1
        let label = isWarmup ? "warmup-\(position + 1)" : "run-\(index)"
        let launch: SessionStop.Launch = isWarmup ? .warmup(position + 1) : .run(index, of: plan.runs)
        guard try prepare(before: launch, on: platform),
            !scope.stopRequested
        else { return nil }  // a Ctrl-C during the prepare: no launch after it
        launches += 1
        let records: [RunRecord]
        let trace: Trace?
        do {
            if plan.mode == .cold { try platform.dropFileCaches() }
            (records, trace) = try MeasureSession.launch(
                request, label: label, index: index, isWarmup: isWarmup, hotLaunches: 0, scope: scope)
        } catch {
            // Nothing measured yet: the caller reports the error. Otherwise keep what was measured.
            if runs.isEmpty { throw error }
            stop = .couldNotStart(launch, error)
            return nil
        }
        if let trace {
            clockSource = clockSource ?? trace.clockSource
            appBudget = appBudget ?? trace.appBudget
        }
        let kept = records.filter { $0.status != .interrupted }
        runs += kept
        // A warm-up that fails would fail every run the same way: stop there and say why.
        if isWarmup, let failed = kept.first(where: { $0.status != .ok }), !plan.ignoreFailures {
            stop = .warmupFailed(position + 1, problem: failed.problemText)
        }
        return kept.first
    }

    /// Runs `--prepare`, when given, before the launch `what`; false when that
    /// launch must not be made: it failed (``stop`` says so) or a stop signal came.
    ///
    /// - Throws: its failure when nothing was measured yet.
    private func prepare(before what: SessionStop.Launch, on platform: any LaunchPlatform) throws(LaunchError) -> Bool {
        guard let prepare = request.commands.prepare else { return true }
        do { try platform.runCommand(prepare, role: .prepare) } catch {
            guard case .failed(let failure) = error else { return false }  // a stop signal: the session ends
            if runs.isEmpty { throw failure }
            stop = .prepareFailed(failure, before: what)
            return false
        }
        return true
    }

    /// Hot mode: one process, its hooks run again for every warm-up and counted launch.
    func launchHot(scope: SessionScope) throws(LaunchError) {
        let plan = request.plan
        guard try prepare(before: .hot, on: scope.platform), !scope.stopRequested else { return }
        let (records, trace) = try MeasureSession.launch(
            request, label: "hot", index: 1, isWarmup: false, hotLaunches: plan.warmup + plan.runs, scope: scope)
        runs = records.filter { $0.status != .interrupted }
        clockSource = trace?.clockSource
        appBudget = trace?.appBudget
    }

    /// What this side collected, with the machine it ran on; `otherStop` is why the
    /// session stopped when this side did not (the other side, the counted launches or the cleanup).
    func collected(in scope: SessionScope, stopSignal: Int32?, stop otherStop: SessionStop? = nil) -> CollectedLaunches
    {
        var environment = scope.machine
        environment.clockSource = (clockSource ?? .monotonic).description
        return CollectedLaunches(
            runs: runs, appBudget: appBudget, environment: environment, finishedAt: scope.platform.utcTimestamp(),
            stopSignal: stopSignal, stopSignalName: stopSignal.flatMap(Platform.signalName),
            stop: stop ?? otherStop)
    }
}
