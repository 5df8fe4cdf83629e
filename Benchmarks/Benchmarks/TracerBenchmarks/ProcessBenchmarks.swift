// The tracer's cost to a whole process, measured in fresh child processes: the latency of a
// process's first event and how much its resident memory grows by recording 10 events (this
// benchmark binary run again, `LAUNCHPROF_BENCH_CHILD=first`, which exits before any benchmark
// is registered), so that a large pool taken at the first event cannot hide; and the
// instructions the flush at exit costs, per unaccounted event and per accounted span, counted
// by callgrind in the tracer probe (Benchmarks/TracerProbe, a program on the same release
// LaunchTracing without the benchmark harness: valgrind cannot run this binary, whose malloc
// interposer it crashes on); and the harness's own instructions before an app's first hook, in
// the probe's `harness` app (one that does nothing), counted the way `launchprof measure
// --metric instructions` counts a phase. Build the probe first:
//
//   swift build -c release --package-path Benchmarks --product TracerProbe

import Benchmark
import Foundation
import LaunchTracing
import _LaunchTracingShims

let firstEventLatency = BenchmarkMetric.custom(
    "first event of a process (ns)", polarity: .prefersSmaller, useScalingFactor: false)
let firstEventsResident = BenchmarkMetric.custom(
    "resident growth of a process that records 10 events (bytes)", polarity: .prefersSmaller, useScalingFactor: false)
let flushPlain = BenchmarkMetric.custom(
    "flush instructions per unaccounted event (10000 spans)", polarity: .prefersSmaller, useScalingFactor: false)
let flushAccounted = BenchmarkMetric.custom(
    "flush instructions per accounted span (10000 spans)", polarity: .prefersSmaller, useScalingFactor: false)
let harnessSetUp = BenchmarkMetric.custom(
    "harness instructions from main to willFinishLaunching", polarity: .prefersSmaller, useScalingFactor: false)
let harnessSetUpWithOptions = BenchmarkMetric.custom(
    "harness instructions from main to willFinishLaunching, launch options given", polarity: .prefersSmaller,
    useScalingFactor: false)

/// What a child process of this binary does, and how the benchmarks run one.
enum ChildProcess {
    /// Set to `first` in a child process: it prints its first event's latency and resident growth.
    static let variable = "LAUNCHPROF_BENCH_CHILD"

    /// Spans the flush row records: a launch's worth.
    static let flushSpans = 10_000

    /// Does what `request` says, prints its result on standard output, and exits.
    static func run(_ request: String) -> Never {
        guard request == "first" else {
            FileHandle.standardError.write(Data("unknown \(variable): \(request)\n".utf8))
            exit(2)
        }
        let before = residentBytes()
        let start = lp_monotonic_ns()
        LaunchTracer.instant("First")
        let first = lp_monotonic_ns() - start
        for _ in 0..<9 { LaunchTracer.instant("Next") }
        usleep(20_000)  // anything the tracer does off this thread settles
        print("\(first) \(residentBytes() - before)")
        exit(0)
    }

    /// This binary's path.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs `program` with `arguments` and `environment` added to this process's (without
    /// `LAUNCHPROF_BENCH_CHILD` unless given); its standard output, or nil when it failed.
    static func output(_ program: String, _ arguments: [String] = [], environment: [String: String] = [:]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var inherited = ProcessInfo.processInfo.environment
        inherited[variable] = nil
        process.environment = inherited.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The first path of `name` on `PATH` that can be run.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// A fresh process's first-event latency (ns) and the resident growth of its 10 events (bytes).
    static func firstEvent() -> (latency: Int, resident: Int)? {
        guard let text = output(executable, environment: [variable: "first"]) else { return nil }
        let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        return fields.count == 2 ? (fields[0], fields[1]) : nil
    }

    /// The tracer probe built beside this binary (the same build folder), when it was built after
    /// every source of LaunchTracing was last changed; else nil, and why. (Its objects are not
    /// compared: the benchmark plugin builds them again with its own settings after the probe.)
    static func probe(sources: String = #filePath) -> (path: String?, problem: String?) {
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let path = folder.appendingPathComponent("TracerProbe").path
        let files = FileManager.default
        func modified(_ path: String) -> Date? {
            (try? files.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        }
        guard let built = modified(path) else { return (nil, "no TracerProbe beside this benchmark") }
        // This file is Benchmarks/Benchmarks/TracerBenchmarks/ProcessBenchmarks.swift.
        var root = URL(fileURLWithPath: sources)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        for module in ["Sources/LaunchTracing", "Sources/_LaunchTracingShims", "Sources/LaunchHarness"] {
            let top = root.appendingPathComponent(module).path
            let changed = (files.subpaths(atPath: top) ?? []).compactMap { modified(top + "/" + $0) }.max()
            if let changed, changed > built { return (nil, "TracerProbe is older than \(module)") }
        }
        return (path, nil)
    }

    /// Runs the probe under callgrind with `options` before it and `arguments` after it (made
    /// from a scratch folder, which is removed after), `environment` added; the text of every
    /// dump callgrind wrote (one at exit, and one at each client request), or nil when it did not
    /// run. Valgrind before 3.20 cannot read the DWARF 5 a release build carries: a copy without
    /// debug information (symbols kept) is counted instead.
    static func callgrindDumps(
        probe: String, options: [String], arguments: (String) -> [String], environment: [String: String]
    ) -> [String]? {
        guard let valgrind = which("valgrind") else { return nil }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("launchprof-callgrind-\(getpid())")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var program = probe
        if let strip = which("strip") {
            let stripped = scratch.appendingPathComponent("probe").path
            if output(strip, ["--strip-debug", "-o", stripped, probe]) != nil { program = stripped }
        }
        let counts = scratch.appendingPathComponent("callgrind.out").path
        let command =
            ["--tool=callgrind", "--callgrind-out-file=\(counts)"] + options + [program] + arguments(scratch.path)
        guard output(valgrind, command, environment: environment) != nil else { return nil }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []
        return names.filter { $0.hasPrefix("callgrind.out") }.compactMap {
            try? String(contentsOfFile: scratch.appendingPathComponent($0).path, encoding: .utf8)
        }
    }

    /// The instructions a callgrind dump counted (its `summary:` or `totals:` line).
    static func counted(_ dump: String) -> Int? {
        for line in dump.split(separator: "\n") where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
            if let value = Int(line.split(separator: " ").last ?? "") { return value }
        }
        return nil
    }

    /// The instructions `LaunchTracer.flush(to:)` executes in a fresh process of the probe after
    /// `flushSpans` spans, accounted or not, counted by callgrind. Instructions are the same from
    /// one run to the next whatever the load (an accounted run's vary by about 1 % with the
    /// readings it takes), so the rows hold on any machine valgrind runs on.
    static func flushInstructions(probe: String, accounted: Bool) -> Int? {
        // `flush(to:)` by its exact symbol: a pattern would also match its specialization, which
        // it calls, and toggle counting off there. `LAUNCHPROF_SPAWN_NS` as launchprof sets it.
        let dumps = callgrindDumps(
            probe: probe,
            options: [
                "--collect-atstart=no",
                "--toggle-collect=$s13LaunchTracing0A6TracerO5flush2toySS_tAA14TraceFileErrorOYKFZ",
            ],
            arguments: { ["flush", "\(flushSpans)", accounted ? "accounted" : "plain", $0 + "/trace.lptrace"] },
            environment: ["LAUNCHPROF_SPAWN_NS": "1"])
        // Counting only inside the flush, callgrind writes one dump, at exit.
        return dumps?.count == 1 ? dumps.flatMap { counted($0[0]) } : nil
    }

    /// The instructions the probe's `harness` app (hooks that do nothing, not traced) executes
    /// from the `main` milestone to `willFinishLaunching.begin`: the phase `appInit` of
    /// `launchprof measure --metric instructions`, read the same way (the tracer has callgrind
    /// dump at each milestone under `LAUNCHPROF_COUNT_INSTRUCTIONS=1`, and the dump at a
    /// milestone holds what was counted since the one before). `options`: the JSON given in
    /// `LAUNCHPROF_LAUNCH_OPTIONS`. The same in every run, whatever the load.
    static func harnessInstructions(probe: String, options: String?) -> Int? {
        var environment = [LaunchContract.Variable.countInstructions: "1"]
        if let options { environment[LaunchContract.Variable.launchOptions] = options }
        let trigger =
            "desc: Trigger: Client Request: " + InstructionMarks.dumpPrefix + Milestone.willFinishLaunchingBegin.id
        let dumps = callgrindDumps(
            probe: probe, options: ["--cache-sim=no", "--branch-sim=no", "--dump-instr=no"],
            arguments: { _ in ["harness"] }, environment: environment)
        let dump = dumps?.first { $0.split(separator: "\n").contains { $0 == trigger } }
        return dump.flatMap(counted)
    }

    /// The probe for the gated row `row`, or nil after saying why there is none (`nothingMeasured`).
    static func probe(for row: String) -> String? {
        let (path, problem) = probe()
        if path == nil {
            nothingMeasured(
                "\(row): \(problem ?? ""); build it (swift build -c release --package-path Benchmarks --product TracerProbe)"
            )
        }
        return path
    }
}

/// Says why a gated row measured nothing. A row with no measurement would pass its
/// threshold check, so where every row must be measured (`LAUNCHPROF_BENCH_REQUIRE=1`,
/// as `.ci/run` sets) the run stops with that line instead.
func nothingMeasured(_ line: String) {
    print(line)
    if ProcessInfo.processInfo.environment["LAUNCHPROF_BENCH_REQUIRE"] == "1" {
        fatalError(line + " (LAUNCHPROF_BENCH_REQUIRE=1: a gated row must be measured)")
    }
}

/// A row gated on instructions callgrind counts in the probe: one iteration (the counts are
/// the same in every run, whatever the load), each metric in a band from 0 whose half-width is
/// its tolerance. `measure` counts them in the probe, in the order of `bands`; nil when
/// callgrind counted nothing, which the row says (naming `counting`) rather than pass empty.
func callgrindRow(
    _ name: String, _ bands: [(metric: BenchmarkMetric, tolerance: Int)], counting: String,
    measure: @escaping (_ probe: String) -> [Int]?
) {
    Benchmark(
        name,
        configuration: .init(
            metrics: bands.map(\.metric), warmupIterations: 0, maxDuration: .seconds(600), maxIterations: 1,
            thresholds: Dictionary(
                uniqueKeysWithValues: bands.map { ($0.metric, BenchmarkThresholds(absolute: [.p90: $0.tolerance])) })
        )
    ) { benchmark in
        guard let probe = ChildProcess.probe(for: name) else { return }
        guard let counts = measure(probe), counts.count == bands.count else {
            let why =
                ChildProcess.which("valgrind") == nil
                ? "valgrind is not installed (apt install valgrind)"
                : "callgrind counted nothing for \(counting)"
            nothingMeasured("\(name): \(why); nothing measured")
            return
        }
        for (band, count) in zip(bands, counts) { benchmark.measurement(band.metric, count) }
    }
}

/// The process-level rows, gated in CI (`.ci/run`, short mode) against Benchmarks/Thresholds,
/// each metric in a band from 0 (the file holds the band's middle, the tolerance here its
/// half-width): the harness's instructions from `main` to `willFinishLaunching` at 250,000
/// (115,000 measured; 470,000 with a set of strings made there, which searched every library's
/// conformances) and 300,000 with launch options given (189,000; 542,000 with that set); the
/// flush at 100 instructions an unaccounted event and 300 an accounted span at most (issue 36's
/// targets; 74 and 205 when they were set); a process's first event at 500 µs (p90 of 10
/// processes; 100–155 µs measured with the machine's load average at 20) and its resident
/// growth for 10 events at 1 MiB (287–418 KiB measured), which a pool of memory made resident
/// at the first event would pass: see RESULTS.md.
func processBenchmarks() {
    callgrindRow(
        "gate harness set-up instructions", [(harnessSetUp, 125_000), (harnessSetUpWithOptions, 150_000)],
        counting: "the harness"
    ) { probe in
        guard let plain = ChildProcess.harnessInstructions(probe: probe, options: nil),
            let given = ChildProcess.harnessInstructions(
                probe: probe, options: #"{"reason":"url","url":"app://book/42","sourceApplication":"mail"}"#)
        else { return nil }
        return [plain, given]
    }

    callgrindRow(
        "gate flush instructions", [(flushPlain, 50), (flushAccounted, 150)], counting: "the flush"
    ) { probe in
        guard let plain = ChildProcess.flushInstructions(probe: probe, accounted: false),
            let accounted = ChildProcess.flushInstructions(probe: probe, accounted: true)
        else { return nil }
        return [plain / ChildProcess.flushSpans, accounted / ChildProcess.flushSpans]
    }

    Benchmark(
        "gate process first event",
        configuration: .init(
            metrics: [firstEventLatency, firstEventsResident], warmupIterations: 0,
            maxDuration: .seconds(short ? 20 : 120), maxIterations: short ? 10 : 40,
            thresholds: [
                firstEventLatency: BenchmarkThresholds(absolute: [.p90: 250_000]),
                firstEventsResident: BenchmarkThresholds(absolute: [.p90: 524_288]),
            ]
        )
    ) { benchmark in
        guard let first = ChildProcess.firstEvent() else {
            nothingMeasured("gate process first event: the child process failed")
            return
        }
        benchmark.measurement(firstEventLatency, first.latency)
        benchmark.measurement(firstEventsResident, first.resident)
    }
}
