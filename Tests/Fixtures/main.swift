// launchprof-fixture: small instrumented programs the tests measure or run.
//
//   launchprof-fixture spin MS RECORD_FILE   didFinishLaunching spins MS ms of CPU,
//                                            measures the hook itself, appends it to RECORD_FILE
//   launchprof-fixture truncated-trace       writes a truncated trace to LAUNCHPROF_TRACE, exits 0
//   launchprof-fixture tracer-only           an app that links the tracer alone, as the README's
//                                            "Instrument an app" shows: spans around real work, then
//                                            LaunchTracer.mark(.firstFrame), then it exits
//   launchprof-fixture fixed-work [SPANS]    didFinishLaunching does a fixed amount of CPU work
//                                            (about 50 ms: 125M steps in 50 spans, or SPANS), a
//                                            low-noise app for measuring the observer effect
//   launchprof-fixture tracer-spans SPANS    an app that links the tracer alone and does 50M steps of
//                                            CPU work in SPANS main-thread spans, then marks the first
//                                            frame and exits: the accounted span's cost in instructions
//                                            (callgrind), traced (LAUNCHPROF_TRACE) against untraced
//   launchprof-fixture timed-work SPANS MARKS_FILE  fixed-work's launch, its loop reading CLOCK_MONOTONIC
//                                            every 50 spans; writes the readings (ns) to MARKS_FILE after
//                                            the hook: where inside the loop a setting costs
//                                            (Benchmarks/span-blocks.py)
//   launchprof-fixture counted-work STEPS [SPANS]  the same with 50 spans (or SPANS) of STEPS steps
//                                            (deterministic work of any size, small enough to count under valgrind)
//   launchprof-fixture busy-workers          the same, with 8 worker threads recording spans
//   launchprof-fixture cpu-burn MS           burns MS ms of its own CPU time, then exits 0 (not instrumented)
//                                            of CPU work (200k steps each) all the while
//   launchprof-fixture keeps-running      a harness app that does not exit after launch (as one run by
//                                            hand): once its trace is at LAUNCHPROF_TRACE it records an
//                                            `AfterTrace` span and exits 0, which must not write it again
//   launchprof-fixture budget-metadata JSON  a tracer-only app whose trace carries JSON as the
//                                            app's budget in code (the launch.budget metadata key)
//   launchprof-fixture forged-trace MS [SLEEP_MS]  a liar: writes a trace it did not record, carrying the
//                                            spawn stamp it was given and a firstFrame MS ms after the
//                                            moment it announces firstFrame (now), sleeps SLEEP_MS ms, exits 0
//   launchprof-fixture backdated-trace SLEEP_MS MS  a liar: sleeps SLEEP_MS ms, then writes a trace it did not
//                                            record with a firstFrame MS ms after its spawn and announces
//                                            firstFrame stamped with that same back-dated moment, exits 0
//   launchprof-fixture serves MARK|port:N    a server that links the tracer alone and has no signal handler:
//                                            spans `LoadConfig` and `ConnectDatabase`, then `mark` marks
//                                            .firstFrame, `ready` calls markReady(), `port:N` listens on
//                                            127.0.0.1:N; then it serves (waits) for ever
//   launchprof-fixture sample-app ARGS…      the bundled sample app, run exactly as
//                                            `launchprof __sample-app ARGS…` runs it
//                                            (ARGS: --variant naive|optimized|slowed)

import Foundation
import LaunchHarness
import LaunchTracing
import SampleApp

let arguments = CommandLine.arguments

/// The hook's duration as the app itself measures it, from clock_gettime at
/// its first and last line.
final class SpinDelegate: LaunchDelegate {
    var measured: UInt64 = 0
    var spinResult: UInt64 = 0
    required init() {}

    func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
        let start = DispatchTime.now().uptimeNanoseconds
        let target = UInt64(Double(arguments[2])! * 1_000_000)
        var x: UInt64 = 1
        while DispatchTime.now().uptimeNanoseconds - start < target { x = x &* 6_364_136_223_846_793_005 &+ 1 }
        measured = DispatchTime.now().uptimeNanoseconds - start
        spinResult = x
        return true
    }

    /// Written after the hook, so the hook holds nothing but the measured spin.
    func didBecomeActive(_ app: LaunchApplication) {
        let line = "\(Double(measured) / 1e6) \(spinResult % 2)\n"
        if let handle = FileHandle(forWritingAtPath: arguments[3]) {
            handle.seekToEndOfFile()
            handle.write(Data(line.utf8))
            handle.closeFile()
        } else {
            _ = FileManager.default.createFile(atPath: arguments[3], contents: Data(line.utf8))
        }
    }
}

/// A fixed amount of CPU work: `steps` steps of a linear congruential generator
/// from `seed` (a different seed each call, so no two calls can be merged).
@inline(never)
func fixedWork(_ steps: Int, seed: UInt64) -> UInt64 {
    var x = seed
    for _ in 0..<steps { x = x &* 6_364_136_223_846_793_005 &+ 1 }
    return x
}

/// didFinishLaunching does 125M steps (about 50 ms of CPU in all) in 50 spans, or `spans`.
final class FixedWorkDelegate: LaunchDelegate {
    nonisolated(unsafe) static var workers = 0
    nonisolated(unsafe) static var spans = 50
    /// Steps in all (`counted-work STEPS` sets 50 spans of STEPS).
    nonisolated(unsafe) static var totalSteps = 125_000_000
    nonisolated(unsafe) static var sink: UInt64 = 0
    required init() {}

    func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
        for _ in 0..<Self.workers {
            Thread {
                var x: UInt64 = 0
                while true { LaunchTracer.measure("WorkerChunk") { x = fixedWork(200_000, seed: x) } }
            }.start()
        }
        var x: UInt64 = 0
        let steps = Self.totalSteps / Self.spans
        for _ in 0..<Self.spans { LaunchTracer.measure("Chunk", category: .compute) { x = fixedWork(steps, seed: x) } }
        Self.sink = x
        return true
    }
}

/// FixedWorkDelegate's work in `spans` spans, the clock read every 50 spans (outside
/// them), the readings written to `arguments[3]` after the hook.
final class TimedWorkDelegate: LaunchDelegate {
    nonisolated(unsafe) static var spans = 10_000
    nonisolated(unsafe) static var marks: [UInt64] = []
    required init() {}

    func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
        var marks = [UInt64](repeating: 0, count: Self.spans / 50 + 1)
        var x: UInt64 = 0
        let steps = FixedWorkDelegate.totalSteps / Self.spans
        for index in 0..<Self.spans {
            if index % 50 == 0 { marks[index / 50] = MonotonicClock.nanoseconds }
            LaunchTracer.measure("Chunk", category: .compute) { x = fixedWork(steps, seed: x) }
        }
        marks[Self.spans / 50] = MonotonicClock.nanoseconds
        FixedWorkDelegate.sink = x
        Self.marks = marks
        return true
    }

    func didBecomeActive(_ app: LaunchApplication) {
        let text = Self.marks.map(String.init).joined(separator: " ") + "\n"
        _ = FileManager.default.createFile(atPath: arguments[3], contents: Data(text.utf8))
    }
}

/// Launches, and exits on its own once the harness has written the trace.
final class KeepsRunningDelegate: LaunchDelegate {
    required init() {}

    func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
        LaunchTracer.measure("Launch") { _ = (0..<1_000).reduce(0, &+) }
        let path = ProcessInfo.processInfo.environment["LAUNCHPROF_TRACE"] ?? ""
        Thread.detachNewThread {
            // Waits for the file the harness writes when launch ends (not for time to pass).
            while !FileManager.default.fileExists(atPath: path) { usleep(5_000) }
            LaunchTracer.begin("AfterTrace").end()
            exit(0)
        }
        return true
    }
}

switch arguments.count > 1 ? arguments[1] : "" {
case "spin" where arguments.count == 4:
    LaunchApplication.main(delegate: SpinDelegate.self, exitAfterLaunch: true)
case "truncated-trace":
    let path = ProcessInfo.processInfo.environment["LAUNCHPROF_TRACE"] ?? "trace.lptrace"
    LaunchTracer.begin("Work").end()
    let bytes = TraceEncoder.encode(LaunchTracer.snapshot())
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes.prefix(bytes.count / 2)))
    _exit(0)  // skips the tracer's exit flush, which would write a whole trace
case "tracer-only":
    // Real work: read this program's own file, then sort a few hundred thousand numbers.
    let span = LaunchTracer.begin("LoadSettings", category: .io)
    let bytes = FileManager.default.contents(atPath: ProcessInfo.processInfo.arguments[0])?.count ?? 0
    span.end()
    let index = LaunchTracer.measure("BuildIndex", category: .compute) {
        (0..<400_000).map { ($0 &* 2_654_435_761) % 1_000_003 }.sorted()
    }
    LaunchTracer.instant("CacheMiss")
    LaunchTracer.mark(.firstFrame)
    print(bytes, index[index.count / 2])
    exit(0)
case "budget-metadata" where arguments.count == 3:
    LaunchTracer.setMetadata(arguments[2], forKey: LaunchContract.MetadataKey.budget)
    LaunchTracer.measure("Work") { _ = (0..<1_000).reduce(0, &+) }
    LaunchTracer.mark(.firstFrame)
    exit(0)
case "tracer-spans" where arguments.count == 3 && (Int(arguments[2]) ?? 0) > 0:
    let spans = Int(arguments[2])!
    var x: UInt64 = 0
    for _ in 0..<spans {
        LaunchTracer.measure("Chunk", category: .compute) { x = fixedWork(50_000_000 / spans, seed: x) }
    }
    LaunchTracer.mark(.firstFrame)
    print(x)
    exit(0)
case "fixed-work" where arguments.count == 3 && (Int(arguments[2]) ?? 0) > 0:
    FixedWorkDelegate.spans = Int(arguments[2])!
    LaunchApplication.main(delegate: FixedWorkDelegate.self, exitAfterLaunch: true)
case "timed-work" where arguments.count == 4 && (Int(arguments[2]) ?? 0) >= 50:
    TimedWorkDelegate.spans = Int(arguments[2])! / 50 * 50
    LaunchApplication.main(delegate: TimedWorkDelegate.self, exitAfterLaunch: true)
case "counted-work"
where (3...4).contains(arguments.count) && (Int(arguments[2]) ?? 0) > 0
    && (arguments.count == 3 || (Int(arguments[3]) ?? 0) > 0):
    if arguments.count == 4 { FixedWorkDelegate.spans = Int(arguments[3])! }
    FixedWorkDelegate.totalSteps = Int(arguments[2])! * FixedWorkDelegate.spans
    LaunchApplication.main(delegate: FixedWorkDelegate.self, exitAfterLaunch: true)
case "fixed-work":
    LaunchApplication.main(delegate: FixedWorkDelegate.self, exitAfterLaunch: true)
case "busy-workers":
    FixedWorkDelegate.workers = 8
    LaunchApplication.main(delegate: FixedWorkDelegate.self, exitAfterLaunch: true)
case "keeps-running":
    LaunchApplication.main(delegate: KeepsRunningDelegate.self)
case "forged-trace" where arguments.count >= 3:
    // The forged first frame comes MS ms after the announcement, however late this process started.
    let announced = MonotonicClock.nanoseconds
    let firstFrame = announced + (UInt64(arguments[2]) ?? 0) * 1_000_000
    writeLyingTrace(firstFrame: firstFrame, announcedAt: announced, file: "Forged.swift")
    usleep(UInt32(arguments.count > 3 ? (UInt32(arguments[3]) ?? 0) * 1_000 : 0))
    _exit(0)  // skips the tracer's exit flush, which would write its own trace
case "backdated-trace" where arguments.count == 4:
    let environment = ProcessInfo.processInfo.environment
    let spawn = environment[LaunchContract.Variable.spawnNanoseconds].flatMap { UInt64($0) } ?? 0
    usleep((UInt32(arguments[2]) ?? 0) * 1_000)
    // The first frame claimed MS ms after the spawn, the trace and the word agreeing with each other.
    let firstFrame = spawn + (UInt64(arguments[3]) ?? 0) * 1_000_000
    writeLyingTrace(firstFrame: firstFrame, announcedAt: firstFrame, file: "Backdated.swift")
    _exit(0)  // skips the tracer's exit flush, which would write its own trace
case "own-size":
    // Prints the size of this program's own file, found by its argv[0].
    print(FileManager.default.contents(atPath: arguments[0])?.count ?? 0)
    exit(0)
case "serves" where arguments.count == 3 || arguments.count == 4:
    // serves HOW [WORK]: WORK values sorted in ConnectDatabase (200,000 by default; fewer keeps
    // a launch counted under valgrind to seconds).
    let work = arguments.count == 4 ? Int(arguments[3]) ?? 200_000 : 200_000
    LaunchTracer.measure("LoadConfig", category: .io) {
        _ = FileManager.default.contents(atPath: ProcessInfo.processInfo.arguments[0])
    }
    LaunchTracer.measure("ConnectDatabase", category: .compute) {
        _ = (0..<work).map { ($0 &* 2_654_435_761) % 1_000_003 }.sorted()
    }
    switch arguments[2] {
    case "mark": LaunchTracer.mark(.firstFrame)
    case "ready": LaunchTracer.markReady()
    case let given where given.hasPrefix("port:"):
        let port = UInt16(given.dropFirst(5)) ?? 0
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var reuse: Int32 = 1
        setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(server, 16) == 0 else {
            FileHandle.standardError.write(Data("cannot listen on port \(port)\n".utf8))
            exit(1)
        }
    default:
        exit(2)
    }
    print("serving")
    // Serves for ever: no signal handler, so SIGTERM's default action ends it (and skips atexit).
    while true { pause() }
case "sample-app":
    SampleApp.main(arguments: Array(arguments.dropFirst(2)))
case "cpu-burn" where arguments.count == 3:
    // Burns MS of this process's CPU time (not of wall time), then exits 0.
    let wanted = (UInt64(arguments[2]) ?? 0) * 1_000_000
    var now = timespec()
    var sink: UInt64 = 0
    repeat {
        for step in 0..<10_000 { sink = sink &* 31 &+ UInt64(step) }
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    } while UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec) < wanted
    print(sink & 1)
    exit(0)

default:
    FileHandle.standardError.write(
        Data(
            ("usage: launchprof-fixture spin MS RECORD_FILE | truncated-trace | tracer-only | forged-trace MS [SLEEP_MS] | backdated-trace SLEEP_MS MS | serves mark|ready|port:N | tracer-spans SPANS | fixed-work [SPANS] | busy-workers | keeps-running | cpu-burn MS | counted-work STEPS [SPANS] | budget-metadata JSON | sample-app --variant "
                + SampleApp.Variant.allCases.map(\.rawValue).joined(separator: "|") + "\n").utf8))
    exit(2)
}
