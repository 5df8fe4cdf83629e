import LaunchAnalysis
import LaunchTracing

/// The launches counted under valgrind (`--metric instructions`), made in the
/// same session as the timed ones, after them (between `--setup` and `--cleanup`,
/// each after `--prepare`), and kept apart from them (``CollectedLaunches/countedRuns``):
/// their times are valgrind's.
///
/// What changes counts between identical launches is held fixed: each launch's
/// folder is `counted-NNN` (the same length for every launch, so the trace path
/// handed down is too; `LAUNCHPROF_SPAWN_NS` is written at a fixed width by the
/// launcher), hash seeds are fixed and the sampler is off
/// (``InstructionCounter/environment(existing:)``). Each launch runs to its exit
/// (callgrind writes its counts then), with the timeout scaled by
/// ``slowdownAllowance``. Two sides alternate in ABBA order, like timed launches.
enum CountedLaunches {
    /// How many times a timed launch's timeout a counted one gets: valgrind slows a program 20–50 ×.
    static let slowdownAllowance = 50.0

    /// The folder of counted launch `index`: `counted-001`, the same length for every launch up to 999.
    static func label(_ index: Int) -> String {
        let digits = String(index)
        return "counted-" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    /// Makes each request's ``MeasurementPlan/countedLaunches`` counted launches, `sides`
    /// naming them for the progress line (nil for a measurement). Returns each side's
    /// records, and why counting stopped early when it did (nothing measured is lost).
    static func run(
        _ requests: [MeasureRequest], sides: [String]?, timed: [[RunRecord]], scope: SessionScope, progress: (any MeasureProgress)?
    ) -> (runs: [[RunRecord]], stopReason: String?) {
        var records = [[RunRecord]](repeating: [], count: requests.count)
        guard let counter = requests.first?.instructionCounter else { return (records, nil) }
        let count = requests.map(\.plan.countedLaunches).max() ?? 0
        guard count > 0 else { return (records, nil) }
        // The program each side runs under valgrind, prepared once per executable.
        var programs: [String] = [], prepared: [String: String] = [:]
        for request in requests {
            if let program = prepared[request.executable] {
                programs.append(program)
                continue
            }
            do {
                let program = try counter.prepare(program: request.executable, in: request.runs.path)
                prepared[request.executable] = program
                programs.append(program)
            } catch {
                return (records, "instructions could not be counted: " + request.runs.presented("\(error)"))
            }
        }
        let timedSeconds = timed.flatMap { $0 }.filter { !$0.isWarmup && $0.status == .ok }
            .compactMap { $0.timeToExitMs ?? $0.timeToReadyMs }.map { $0 / 1000 }
        progress?.countingStarts(launches: count * requests.count, timedLaunchSeconds: timedSeconds.isEmpty ? nil : Summary.median(timedSeconds))
        let started = scope.elapsed
        var made = 0
        for round in 0..<count {
            // ABBA, as the timed launches.
            let order = round % 2 == 0 ? Array(requests.indices) : Array(requests.indices.reversed())
            for which in order {
                if scope.stopRequested { return (records, nil) }
                let request = requests[which]
                if let prepare = request.commands.prepare {
                    do { try SessionCommands.run(prepare, role: .prepare) } catch {
                        guard case .failed(let failure) = error else { return (records, nil) }
                        return (records, "\(failure) (before counted launch \(round + 1))")
                    }
                }
                let record: RunRecord
                do {
                    record = try launch(request, counter: counter, program: programs[which], index: round + 1, isSubreaper: scope.isSubreaper)
                } catch {
                    let side = sides.map { $0[which] + " " } ?? ""
                    return (records, "\(side)counted launch \(round + 1) could not be started: " + request.runs.presented("\(error)"))
                }
                guard record.status != .interrupted else { return (records, nil) }
                var presented = record
                presented.problem = presented.problem.map(request.runs.presented)
                records[which].append(presented)
                made += 1
                progress?.countedRunFinished(
                    presented, side: sides?[which], counted: made, of: count * requests.count, elapsedSeconds: scope.elapsed - started)
            }
        }
        return (records, nil)
    }

    /// One counted launch of `request`, `program` (its executable, or the copy valgrind can read) run under callgrind.
    static func launch(
        _ request: MeasureRequest, counter: InstructionCounter, program: String, index: Int, isSubreaper: Bool
    ) throws(LaunchError) -> RunRecord {
        let directory = try request.runs.makeSubdirectory(label(index))
        let plan = request.plan
        var environment = [
            LaunchContract.Variable.trace: directory.path + "/" + MeasureSession.traceFileName,
            LaunchContract.Variable.exitAfterLaunch: "1",
        ]
        if let options = plan.launchOptions { environment[LaunchContract.Variable.launchOptions] = options.json }
        let existing = Set(ProcessEnvironment.entries.map { String($0.prefix { $0 != "=" }) })
        environment.merge(InstructionCounter.environment(existing: existing)) { _, fixed in fixed }
        let output = directory.path + "/callgrind"
        let command = counter.command(program: program, arguments: request.arguments, output: output)
        let timeout = plan.timeoutSeconds * slowdownAllowance
        let launchRequest = LaunchRequest(
            executable: command[0], arguments: Array(command.dropFirst()), extraEnvironment: environment, ready: .exit,
            timeoutSeconds: timeout, workDirectory: directory.path, workDirectoryDescriptor: directory.descriptor,
            readyGraceSeconds: timeout, pseudoTerminal: request.pseudoTerminal)
        let outcome = try withExtendedLifetime(directory) { () throws(LaunchError) in try Launcher.launch(launchRequest) }

        var record = RunRecord(
            index: index, isWarmup: false, status: .ok, stdoutPath: outcome.stdoutPath, stderrPath: outcome.stderrPath)
        record.cpuTime = outcome.cpuTime
        record.wallClock = Platform.wallClockAnchor(at: outcome.spawnNanoseconds)
        switch outcome.termination {
        case .exited, .signaled:
            record.timeToExitMs = outcome.exitNanoseconds.map { Double($0.subtractingClamped(outcome.spawnNanoseconds)) / 1e6 }
            record.timeToReadyMs = record.timeToExitMs
        default:
            break
        }
        switch outcome.termination {
        case .exited(0), .stoppedAtReady:
            do { record.instructions = try counter.collect(output: output, processID: outcome.processID) } catch {
                record.status = .failedExit
                record.problem = "\(error)"
            }
        case .interrupted:
            record.status = .interrupted
            record.problem = "ended when launchprof was told to stop"
        case .exited(let code):
            record.status = .failedExit
            record.exitCode = code
            record.problem = "exited with code \(code) under valgrind" + (MeasureSession.lastLine(ofFile: outcome.stderrPath).map { " (stderr: \($0))" } ?? "")
        case .signaled(let signal):
            record.status = .crashed
            record.signal = signal
            record.problem = outcome.termination.description + " under valgrind" + (MeasureSession.lastLine(ofFile: outcome.stderrPath).map { " (stderr: \($0))" } ?? "")
        case .timedOut:
            record.status = .timedOut
            record.problem = "did not exit within \(LaunchDiagnosis.seconds(timeout)) s under valgrind "
                + "(\(Int(slowdownAllowance)) × --timeout); callgrind writes its counts only at the exit"
        }
        if Platform.entryExists(launchRequest.workDirectory + "/" + MeasureSession.traceFileName) {
            record.tracePath = launchRequest.workDirectory + "/" + MeasureSession.traceFileName
        }
        let leftovers = Platform.endLeftovers(
            stampEntry: "\(LaunchContract.Variable.spawnNanoseconds)=\(outcome.spawnStamp)", isSubreaper: isSubreaper)
        if leftovers > 0 { record.leftoverProcesses = leftovers }
        return record
    }
}
