import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchTracing
import Testing

/// A ``LaunchPlatform`` that launches nothing: each launch takes the next
/// scripted ending, writes the files a program would (stdout, stderr, a trace)
/// into the launch's folder, and answers with the result the launcher would
/// have returned. Commands, cache drops and stop signals are scripted and recorded too.
final class ScriptedPlatform: LaunchPlatform {
    /// One launch as the script has it.
    struct Launch {
        var termination: Termination = .exited(code: 0)
        /// Milliseconds from the spawn to ready; nil: never ready.
        var readyMs: Double? = 10
        /// Ready at the exit, standing in for a word that never came.
        var readyIsExitFallback = false
        var stdout = ""
        var stderr = ""
        /// Milestones (milliseconds after the spawn) of a trace the launch writes; nil writes none.
        var milestones: [(Milestone, Double)]?
        /// The spawn stamp the trace claims, when not this launch's own.
        var traceSpawnNanoseconds: UInt64?
        /// A stop signal (this number) arrives during the launch.
        var stopSignal: Int32?
        /// The launch cannot be started: this error.
        var error: LaunchError?
        /// Under callgrind (a counted launch): the instructions its count file says the
        /// main thread ran; nil writes no count file.
        var instructions: UInt64? = 1_000_000
        /// Under callgrind, a traced program that keeps running: the tracer's dump at its
        /// first frame counts this many instructions, it says `firstFrame` and `flushed`, and
        /// launchprof ends it, leaving the file written at its end cut short.
        var dumpedAtMark: UInt64?
        /// Under callgrind: what valgrind's log for the launch says.
        var valgrindLog: String?
        /// The tracer did not answer launchprof's flush request.
        var flushUnanswered = false

        static func ok(readyMs: Double = 10) -> Launch { Launch(readyMs: readyMs) }
    }

    var script: [Launch]
    /// The requests launched, in order.
    private(set) var requests: [LaunchRequest] = []
    /// The session commands run, in order.
    private(set) var commands: [(role: SessionCommands.Role, command: String)] = []
    /// The roles whose commands fail.
    var failingRoles: Set<SessionCommands.Role> = []
    /// The `--prepare` runs from this one on (counted from 1) fail.
    var prepareFailsFrom: Int?
    private(set) var cacheDrops = 0
    /// How many times adopted orphans were spared (once before each launch).
    private(set) var orphansSpared = 0
    private(set) var sessions = 0
    private(set) var sessionsEnded = 0
    private(set) var stopRequested = false
    private(set) var lastStopSignal: Int32 = 0
    /// The monotonic clock of the fake: each launch starts a second after the last.
    private var clock: UInt64 = 1_000_000_000_000

    init(_ script: [Launch]) {
        self.script = script
    }

    func launch(_ request: LaunchRequest) throws(LaunchError) -> LaunchResult {
        requests.append(request)
        guard !script.isEmpty else {
            Issue.record("a launch the script does not have")
            throw .spawnFailed(path: request.executable, code: 2)
        }
        let launch = script.removeFirst()
        if let error = launch.error { throw error }
        clock += 1_000_000_000
        let spawn = clock
        func at(_ ms: Double) -> UInt64 { spawn + UInt64(ms * 1e6) }
        FileManager.default.createFile(atPath: request.stdoutPath, contents: Data(launch.stdout.utf8))
        FileManager.default.createFile(atPath: request.stderrPath, contents: Data(launch.stderr.utf8))
        if let milestones = launch.milestones, let path = request.extraEnvironment[LaunchContract.Variable.trace] {
            let events = milestones.map { milestone, ms in
                TraceEvent(
                    kind: .mark, category: milestone.rawValue, nameID: 0, beginNanoseconds: at(ms),
                    endNanoseconds: at(ms))
            }
            let last = milestones.map(\.1).max() ?? 0
            let trace = Trace(
                clockSource: .monotonic, processID: 4_242,
                spawn: SpawnTime(nanoseconds: launch.traceSpawnNanoseconds ?? spawn, source: .parent),
                runtimeInitNanoseconds: at(1), flushNanoseconds: at(last + 1), strings: [""],
                threads: [TraceThread(index: 0, osThreadID: 4_242, name: "main", isMain: true, events: events)])
            FileManager.default.createFile(atPath: path, contents: Data(TraceEncoder.encode(trace)))
        }
        if let instructions = launch.instructions, launch.termination == .exited(code: 0),
            let output = request.arguments.first(where: { $0.hasPrefix("--callgrind-out-file=") })
        {
            // What callgrind writes at the program's end: `<output>.<pid>-<thread>`.
            let path =
                output.dropFirst("--callgrind-out-file=".count).replacingOccurrences(of: "%p", with: "4242") + "-01"
            let text =
                "thread: 1\ndesc: Trigger: Program termination\nevents: Ir\nfn=(1) main\n1 \(instructions)\ntotals: \(instructions)\n"
            _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        }
        var readyLines: [LaunchResult.ReadyLine] = []
        if let output = request.arguments.first(where: { $0.hasPrefix("--callgrind-out-file=") }) {
            let base = output.dropFirst("--callgrind-out-file=".count).replacingOccurrences(of: "%p", with: "4242")
            if let dumped = launch.dumpedAtMark {
                let dump =
                    "thread: 1\ndesc: Trigger: Client Request: launchprof:milestone:firstFrame\nevents: Ir\n"
                    + "fn=(1) main\n1 \(dumped)\ntotals: \(dumped)\n"
                _ = FileManager.default.createFile(atPath: base + ".1-01", contents: Data(dump.utf8))
                _ = FileManager.default.createFile(atPath: base + "-01", contents: Data("events: Ir\nfn=(1".utf8))
                readyLines = ["firstFrame", "flushed"].map { .init(text: $0, nanoseconds: at(launch.readyMs ?? 10)) }
            }
            if let log = launch.valgrindLog {
                _ = FileManager.default.createFile(atPath: base + ".log", contents: Data(log.utf8))
            }
        }
        if let signal = launch.stopSignal {
            stopRequested = true
            lastStopSignal = signal
        }
        let end = at((launch.readyMs ?? 50) + 5)
        var result = LaunchResult(
            processID: 4_242, spawnNanoseconds: spawn, readyNanoseconds: launch.readyMs.map(at),
            readyIsExitFallback: launch.readyIsExitFallback, exitNanoseconds: end, termination: launch.termination,
            stdoutPath: request.stdoutPath, stderrPath: request.stderrPath, readyLines: readyLines,
            cpuTime: CPUTime(userNanoseconds: 3_000_000, systemNanoseconds: 1_000_000))
        result.flushUnanswered = launch.flushUnanswered
        return result
    }

    func runCommand(_ command: String, role: SessionCommands.Role) throws(SessionCommands.Failure) {
        commands.append((role, command))
        let prepares = commands.filter { $0.role == .prepare }.count
        if failingRoles.contains(role) || (role == .prepare && prepareFailsFrom.map { prepares >= $0 } == true) {
            throw .failed(.commandFailed(role: role.rawValue, command: command, problem: "exited with code 1"))
        }
    }

    func dropFileCaches() throws(LaunchError) { cacheDrops += 1 }

    func beginSession(announcingStop: Bool) -> Bool {
        sessions += 1
        return false
    }

    func endSession() { sessionsEnded += 1 }

    func spareAdoptedOrphans(isSubreaper: Bool) { orphansSpared += 1 }

    func endLeftovers(spawnNanoseconds: UInt64, isSubreaper: Bool) -> Int { 0 }

    func machine() -> MachineEnvironment {
        MachineEnvironment(
            hostname: "scripted", operatingSystem: "Linux 6.0", cpuModel: "test CPU", cpuCount: 4, clockSource: "")
    }

    func utcTimestamp() -> String { "2026-11-26T00:00:00Z" }

    func wallClockAnchor(at monotonic: UInt64) -> WallClockAnchor {
        WallClockAnchor(monotonicNanoseconds: monotonic, unixNanoseconds: 1_700_000_000_000_000_000 + monotonic)
    }

    /// The executables launched, in order (`base`/`head` in a comparison).
    var executables: [String] { requests.map(\.executable) }
}

/// A measurement request of `runs` (and `warmup`) launches of `/scripted/app`, its runs under `folder`,
/// then `counted` launches under a scripted valgrind (``scriptedCounter``).
func scriptedRequest(
    runs: Int, warmup: Int = 0, ready: ReadyCondition? = .exit, mode: MeasureMode = .warm,
    executable: String = "/scripted/app",
    folder: OwnedDirectory, commands: SessionCommands = SessionCommands(), counted: Int = 0
) -> SessionRequest {
    var plan = MeasurementPlan(
        name: "scripted", commandLine: ["launchprof", "measure"], command: [executable], runs: runs, warmup: warmup,
        mode: mode,
        ready: ready, timeoutSeconds: 20)
    var request = SessionRequest(plan: plan, executable: executable, arguments: [], runs: folder, commands: commands)
    if counted > 0 {
        plan.countedLaunches = counted
        request.plan = plan
        request.instructionCounter = scriptedCounter
    }
    return request
}

/// A counter whose valgrind is never run: the scripted platform "launches" it.
let scriptedCounter = InstructionCounter(valgrindPath: "/scripted/valgrind", valgrindVersion: "valgrind-3.19.0")
