// The tracer's cost, beside the floors it is measured against, in one run.
//
//   swift package --package-path Benchmarks --disable-sandbox benchmark --target TracerBenchmarks
//
// Each hot-path benchmark does 1M operations per sample (scalingFactor .mega),
// so its wall-clock figures read as nanoseconds per operation. The "vs floor"
// benchmarks time the tracer and its floor in turns inside each sample and
// record the ratio in thousandths (1000 = at the floor), so load on the machine
// moves both sides alike.
//
// CI (`.ci/run`) runs the rows named "gate …" with LAUNCHPROF_BENCH_SHORT=1 and
// checks them against Benchmarks/Thresholds (package-benchmark's p90 threshold
// files): no allocation on the hot path, a span and an instant within 1.5 × their floors,
// an accounted span within 3 × an unaccounted one at 1,000 and 10,000 spans, at
// most 0.1 accounting system calls a span, and spans on a fresh thread within 3 × the
// floor at 100 a thread and 1.5 × from 1,000 to 10,000; and the process-level rows of
// ProcessBenchmarks.swift (the flush's instructions, a process's first event and memory).

import Benchmark
import Foundation
import LaunchTracing
import _LaunchTracingShims

/// One span's worth of a preallocated store for the floors.
struct TickPair {
    var begin: UInt64
    var end: UInt64
}

let eventsPerSample = 1_000_000
let short = ProcessInfo.processInfo.environment["LAUNCHPROF_BENCH_SHORT"] == "1"

/// The span/floor ratio, in thousandths; gated at 1500 (see Thresholds/).
let spanRatio = BenchmarkMetric.custom("span vs floor (permille)", polarity: .prefersSmaller, useScalingFactor: false)
let instantRatio = BenchmarkMetric.custom(
    "instant vs floor (permille)", polarity: .prefersSmaller, useScalingFactor: false)
let freshRatio = BenchmarkMetric.custom(
    "1000 spans on a fresh thread vs floor (permille)", polarity: .prefersSmaller, useScalingFactor: false)
let firstEvent = BenchmarkMetric.custom(
    "first event on a fresh thread (ns)", polarity: .prefersSmaller, useScalingFactor: false)
let accounted1k = BenchmarkMetric.custom(
    "accounted span vs unaccounted, 1000 spans (permille)", polarity: .prefersSmaller, useScalingFactor: false)
let accounted10k = BenchmarkMetric.custom(
    "accounted span vs unaccounted, 10000 spans (permille)", polarity: .prefersSmaller, useScalingFactor: false)
let accountingCalls = BenchmarkMetric.custom(
    "accounting system calls per 10000 spans", polarity: .prefersSmaller, useScalingFactor: false)
let residentPerThread = BenchmarkMetric.custom(
    "resident bytes added per 10-event thread", polarity: .prefersSmaller, useScalingFactor: false)
let inUsePerThread = BenchmarkMetric.custom(
    "event memory per 10-event thread (bytes)", polarity: .prefersSmaller, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    // A child process of the process-level rows (ProcessBenchmarks.swift) does its part and exits here.
    if let request = ProcessInfo.processInfo.environment[ChildProcess.variable] { ChildProcess.run(request) }
    processBenchmarks()

    /// A ratio metric passes while its p90 lies in 0…1500: the threshold file
    /// holds the band's middle (750) and this tolerance its half-width.
    let ratioCeiling: [BenchmarkMetric: BenchmarkThresholds] = [
        spanRatio: BenchmarkThresholds(absolute: [.p90: 750]),
        instantRatio: BenchmarkThresholds(absolute: [.p90: 750]),
    ]

    // Room for one sample's events on the two benchmark threads, set before the
    // first event (32 bytes an event); reset between samples keeps the chunks. The
    // fresh-memory row takes about 1 MiB a sample more, never given back.
    LaunchTracer.bufferLimitBytes = 512 << 20

    // The threshold check reads raw counts a sample, and package-benchmark's own
    // bookkeeping makes 16 allocations in a sample of a row of 1M operations (a
    // bare floor loop shows them too): the files hold 16, and this tolerance
    // lets a sample make up to 100 more. A hot path that allocates makes 1M.
    let hotPath = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions],
        scalingFactor: .mega,
        maxDuration: short ? .milliseconds(400) : .seconds(3),
        maxIterations: short ? 8 : 40,
        thresholds: [.mallocCountTotal: BenchmarkThresholds(absolute: [.p90: 100])]
    )
    let ratios = Benchmark.Configuration(
        metrics: [spanRatio, instantRatio, .mallocCountTotal],
        maxDuration: short ? .seconds(1) : .seconds(5),
        maxIterations: short ? 30 : 200,
        thresholds: ratioCeiling
    )
    let freshThreads = Benchmark.Configuration(
        metrics: [firstEvent, freshRatio],
        maxDuration: short ? .seconds(1) : .seconds(5),
        maxIterations: short ? 50 : 500
    )

    // MARK: The tracer

    Benchmark("gate span begin+end", configuration: hotPath) { benchmark in
        LaunchTracer.reset()
        for _ in benchmark.scaledIterations {
            LaunchTracer.begin("Span", category: .compute).end()
        }
    }

    Benchmark("gate instant", configuration: hotPath) { benchmark in
        LaunchTracer.reset()
        for _ in benchmark.scaledIterations {
            LaunchTracer.instant("Instant")
        }
    }

    Benchmark("gate disabled span", configuration: hotPath) { benchmark in
        LaunchTracer.isEnabled = false
        for _ in benchmark.scaledIterations {
            LaunchTracer.begin("Disabled").end()
        }
        LaunchTracer.isEnabled = true
    }

    // Span and instant against their floors, in turns of 10,000 of each; each
    // side's fastest of 8 turns, so a turn the scheduler interrupted does not count.
    let turn = 10_000
    var pairs = [TickPair](repeating: TickPair(begin: 0, end: 0), count: turn)
    var singles = [UInt64](repeating: 0, count: turn)
    Benchmark("gate span and instant vs floor", configuration: ratios) { benchmark in
        var span = UInt64.max
        var spanFloor = UInt64.max
        var instant = UInt64.max
        var instantFloor = UInt64.max
        for _ in 0..<8 {
            LaunchTracer.reset()
            var start = lp_monotonic_ns()
            for _ in 0..<turn { LaunchTracer.begin("Span", category: .compute).end() }
            span = min(span, lp_monotonic_ns() - start)
            start = lp_monotonic_ns()
            pairs.withUnsafeMutableBufferPointer { buffer in
                for index in 0..<turn {
                    let begin = lp_cpu_counter()
                    buffer[index] = TickPair(begin: begin, end: lp_cpu_counter())
                }
            }
            spanFloor = min(spanFloor, lp_monotonic_ns() - start)
            LaunchTracer.reset()
            start = lp_monotonic_ns()
            for _ in 0..<turn { LaunchTracer.instant("Instant") }
            instant = min(instant, lp_monotonic_ns() - start)
            start = lp_monotonic_ns()
            singles.withUnsafeMutableBufferPointer { buffer in
                for index in 0..<turn { buffer[index] = lp_cpu_counter() }
            }
            instantFloor = min(instantFloor, lp_monotonic_ns() - start)
        }
        benchmark.measurement(spanRatio, Int(span * 1000 / max(1, spanFloor)))
        benchmark.measurement(instantRatio, Int(instant * 1000 / max(1, instantFloor)))
    }

    // MARK: Accounted spans (the main thread of a traced launch)

    // An accounted span (resource accounting on, as on the main thread of every
    // launch `launchprof measure` makes) against an unaccounted one on the same
    // thread, in turns of `count` spans — a launch's worth — each side's fastest of
    // 8 turns, as a ratio in thousandths. The accounting's system calls are
    // counted by the tracer itself (`LaunchTracer.accountingSystemCalls`), not
    // timed: the most a 10,000-span turn made. Gated in CI: the ratio at 3 × at
    // most, and 1,000 calls per 10,000 spans (0.1 a span) at most.
    let accountedRatios = Benchmark.Configuration(
        metrics: [accounted1k, accounted10k, accountingCalls],
        maxDuration: short ? .seconds(1) : .seconds(5),
        maxIterations: short ? 20 : 100,
        thresholds: [
            accounted1k: BenchmarkThresholds(absolute: [.p90: 1500]),
            accounted10k: BenchmarkThresholds(absolute: [.p90: 1500]),
            accountingCalls: BenchmarkThresholds(absolute: [.p90: 500]),
        ]
    )
    Benchmark("gate accounted span vs unaccounted", configuration: accountedRatios) { benchmark in
        var calls: UInt64 = 0
        for (count, metric) in [(1_000, accounted1k), (10_000, accounted10k)] {
            var accounted = UInt64.max
            var plain = UInt64.max
            for _ in 0..<8 {
                LaunchTracer.reset()
                LaunchTracer.setResourceAccounting(true)
                var start = lp_monotonic_ns()
                for _ in 0..<count { LaunchTracer.begin("Accounted", category: .compute).end() }
                accounted = min(accounted, lp_monotonic_ns() - start)
                if count == 10_000 { calls = max(calls, LaunchTracer.accountingSystemCalls) }
                LaunchTracer.setResourceAccounting(false)
                LaunchTracer.reset()
                start = lp_monotonic_ns()
                for _ in 0..<count { LaunchTracer.begin("Plain", category: .compute).end() }
                plain = min(plain, lp_monotonic_ns() - start)
            }
            benchmark.measurement(metric, Int(accounted * 1000 / max(1, plain)))
        }
        benchmark.measurement(accountingCalls, Int(calls))
    }

    // A second thread that lives for the whole run, so no sample pays for
    // creating it or its first chunks.
    let worker = SpanWorker()
    Benchmark("span begin+end, 2 threads at once", configuration: hotPath) { benchmark in
        LaunchTracer.reset()
        let half = benchmark.scaledIterations.count / 2
        benchmark.startMeasurement()
        worker.start(spans: half)
        for _ in 0..<(benchmark.scaledIterations.count - half) { LaunchTracer.begin("Span").end() }
        worker.wait()
        benchmark.stopMeasurement()
    }

    // MARK: Fresh threads

    // Each sample starts a thread: its first event (registration and its first
    // chunk), then 1,000 spans timed against 1,000 floor operations on the same
    // thread. Threads that ended give their chunks back at reset.
    Benchmark("fresh thread first event and 1000 spans vs floor", configuration: freshThreads) { benchmark in
        LaunchTracer.reset()
        let result = FreshThreadTimes()
        let done = DispatchSemaphore(value: 0)
        Thread {
            var floor = [TickPair](repeating: TickPair(begin: 0, end: 0), count: 1_000)
            var start = lp_monotonic_ns()
            LaunchTracer.instant("First")
            result.first = lp_monotonic_ns() - start
            start = lp_monotonic_ns()
            for _ in 0..<1_000 { LaunchTracer.begin("Span").end() }
            result.spans = lp_monotonic_ns() - start
            floor.withUnsafeMutableBufferPointer { buffer in
                start = lp_monotonic_ns()
                for index in 0..<1_000 {
                    let begin = lp_cpu_counter()
                    buffer[index] = TickPair(begin: begin, end: lp_cpu_counter())
                }
                result.floor = lp_monotonic_ns() - start
            }
            done.signal()
        }.start()
        done.wait()
        benchmark.measurement(firstEvent, Int(result.first))
        // The first event is counted among the 1,000: (first + 999 more) against 1,000 floors.
        benchmark.measurement(
            freshRatio, Int((result.first + result.spans * 999 / 1_000) * 1000 / max(1, result.floor)))
    }

    // Unaccounted spans on fresh threads at several counts a thread, through the
    // public API (the first span registers the thread and takes its first chunk),
    // against two raw tick reads and a store into memory already touched, on the
    // same thread: each sample starts three threads per count and keeps each
    // side's fastest, so a thread the scheduler interrupted does not count.
    // Gated in CI (issue 22): 3 × the floor at most at 100 spans a thread, 1.5 ×
    // from 1,000 to 10,000.
    let perThreadCounts = [100, 1_000, 2_000, 5_000, 10_000]
    let perThreadMetrics = perThreadCounts.map {
        BenchmarkMetric.custom(
            "\($0) spans on a fresh thread vs floor (permille)", polarity: .prefersSmaller, useScalingFactor: false)
    }
    /// The band a ratio passes in: 0…3000 at 100 spans, 0…1500 from 1,000 (the
    /// threshold file holds the middle, this tolerance the half-width).
    let perThreadCeilings = Dictionary(
        uniqueKeysWithValues: zip(perThreadCounts, perThreadMetrics).map { count, metric in
            (metric, BenchmarkThresholds(absolute: [.p90: count == 100 ? 1500 : 750]))
        })
    Benchmark(
        "gate fresh thread spans vs floor by count",
        configuration: .init(
            metrics: perThreadMetrics, maxDuration: .seconds(short ? 2 : 5), maxIterations: short ? 20 : 200,
            thresholds: perThreadCeilings
        )
    ) { benchmark in
        for (count, metric) in zip(perThreadCounts, perThreadMetrics) {
            // The fastest of five threads: a 100-span sample lasts about a microsecond, and on a
            // loaded machine one of three fresh threads was often slowed by the scheduler or by
            // first touches of memory other work was claiming (p90 4.3 × beside a sanitizer's test run).
            var spans = UInt64.max
            var floor = UInt64.max
            for _ in 0..<5 {
                LaunchTracer.reset()
                let result = FreshThreadTimes()
                let done = DispatchSemaphore(value: 0)
                Thread {
                    var floor = [TickPair](repeating: TickPair(begin: 0, end: 0), count: count)
                    var start = lp_monotonic_ns()
                    for _ in 0..<count { LaunchTracer.begin("Span").end() }
                    result.spans = lp_monotonic_ns() - start
                    floor.withUnsafeMutableBufferPointer { buffer in
                        start = lp_monotonic_ns()
                        for index in 0..<count {
                            let begin = lp_cpu_counter()
                            buffer[index] = TickPair(begin: begin, end: lp_cpu_counter())
                        }
                        result.floor = lp_monotonic_ns() - start
                    }
                    done.signal()
                }.start()
                done.wait()
                spans = min(spans, result.spans)
                floor = min(floor, result.floor)
            }
            benchmark.measurement(metric, Int(spans * 1000 / max(1, floor)))
        }
    }

    // MARK: Fresh memory

    // Unaccounted spans on fresh threads on memory the process never touched: chunks that
    // exited threads gave back are not taken again (`lp_arena_set_fresh_only`), so each
    // thread writes where no event was written before, as a launch's threads do, and the
    // arena's populater makes that memory resident ahead of them. Against two floors on the
    // same thread: two tick reads and a 16-byte store into memory touched before (warm),
    // and two tick reads and a store of an event's bytes into memory mapped for it and
    // never touched (fresh, the same bytes the tracer writes). Each count's fastest of
    // three threads. Gated: span ÷ warm floor ≤ 1.5 × at 1,000 and ≤ 1.3 × at 5,000 and
    // 10,000; span ÷ fresh floor ≤ 1.1 ×.
    let freshCounts = [1_000, 5_000, 10_000]
    let freshWarm = freshCounts.map {
        BenchmarkMetric.custom(
            "\($0) spans on fresh memory vs warm floor (permille)", polarity: .prefersSmaller, useScalingFactor: false)
    }
    let freshSame = freshCounts.map {
        BenchmarkMetric.custom(
            "\($0) spans on fresh memory vs fresh floor (permille)", polarity: .prefersSmaller, useScalingFactor: false)
    }
    let freshNanoseconds = ["span", "warm floor", "fresh floor"].map {
        BenchmarkMetric.custom(
            "10000 on fresh memory: \($0) (ns)", polarity: .prefersSmaller, useScalingFactor: false)
    }
    // A band from 0 to the ceiling: the threshold file holds its middle, this tolerance its half-width.
    var freshCeilings: [BenchmarkMetric: BenchmarkThresholds] = [:]
    for (count, metric) in zip(freshCounts, freshWarm) {
        freshCeilings[metric] = BenchmarkThresholds(absolute: [.p90: count == 1_000 ? 750 : 650])
    }
    for metric in freshSame { freshCeilings[metric] = BenchmarkThresholds(absolute: [.p90: 550]) }
    Benchmark(
        "gate fresh memory spans vs floors by count",
        configuration: .init(
            metrics: freshWarm + freshSame + freshNanoseconds, maxDuration: .seconds(short ? 2 : 5),
            maxIterations: short ? 10 : 60, thresholds: freshCeilings
        )
    ) { benchmark in
        lp_arena_set_fresh_only(1)
        defer { lp_arena_set_fresh_only(0) }
        let eventBytes = MemoryLayout<lp_event>.stride
        for (index, count) in freshCounts.enumerated() {
            var spans = UInt64.max
            var warmFloor = UInt64.max
            var freshFloor = UInt64.max
            for _ in 0..<3 {
                let result = FreshThreadTimes()
                let done = DispatchSemaphore(value: 0)
                let bytes = count * eventBytes
                let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
                let address = UInt(bitPattern: mapped)  // (a raw pointer is not Sendable)
                Thread {
                    let fresh = UnsafeMutableRawPointer(bitPattern: address)!
                    var warm = [TickPair](repeating: TickPair(begin: 0, end: 0), count: count)
                    var start = lp_monotonic_ns()
                    for _ in 0..<count { LaunchTracer.begin("Span").end() }
                    result.spans = lp_monotonic_ns() - start
                    warm.withUnsafeMutableBufferPointer { buffer in
                        start = lp_monotonic_ns()
                        for index in 0..<count {
                            let begin = lp_cpu_counter()
                            buffer[index] = TickPair(begin: begin, end: lp_cpu_counter())
                        }
                        result.floor = lp_monotonic_ns() - start
                    }
                    start = lp_monotonic_ns()
                    for index in 0..<count {
                        let begin = lp_cpu_counter()
                        let slot = fresh + index * eventBytes
                        slot.storeBytes(of: TickPair(begin: begin, end: lp_cpu_counter()), as: TickPair.self)
                        for offset in stride(from: 16, to: eventBytes, by: 8) {
                            slot.storeBytes(of: begin, toByteOffset: offset, as: UInt64.self)
                        }
                    }
                    result.first = lp_monotonic_ns() - start  // the fresh floor
                    done.signal()
                }.start()
                done.wait()
                munmap(mapped, bytes)
                spans = min(spans, result.spans)
                warmFloor = min(warmFloor, result.floor)
                freshFloor = min(freshFloor, result.first)
            }
            benchmark.measurement(freshWarm[index], Int(spans * 1000 / max(1, warmFloor)))
            benchmark.measurement(freshSame[index], Int(spans * 1000 / max(1, freshFloor)))
            if count == 10_000 {
                for (metric, total) in zip(freshNanoseconds, [spans, warmFloor, freshFloor]) {
                    benchmark.measurement(metric, Int(total) / count)
                }
            }
        }
    }

    // Resident memory: 32 threads that each record 10 events and wait, against
    // 32 that record nothing and wait; the difference over 32 is the tracer's.
    Benchmark(
        "fresh thread memory of 10 events",
        configuration: .init(
            metrics: [residentPerThread, inUsePerThread], maxDuration: .seconds(short ? 1 : 5),
            maxIterations: short ? 5 : 20
        )
    ) { benchmark in
        LaunchTracer.reset()
        let idle = ParkedThreads(count: 32, events: 0)
        let idleResident = residentBytes()
        let held = LaunchTracer.bufferBytesInUse
        let recording = ParkedThreads(count: 32, events: 10)
        let recordingResident = residentBytes()
        let heldAfter = LaunchTracer.bufferBytesInUse
        idle.release()
        recording.release()
        // Less the 32 idle threads' own growth (stacks), measured from before them.
        let baseline = idleResident - idle.residentBefore
        benchmark.measurement(residentPerThread, max(0, (recordingResident - idleResident) - baseline) / 32)
        benchmark.measurement(inUsePerThread, (heldAfter - held) / 32)
    }

    // MARK: Floors, measured by the same binary

    var ticks = [TickPair](repeating: TickPair(begin: 0, end: 0), count: eventsPerSample)
    Benchmark("floor: 2 raw tick reads + store", configuration: hotPath) { benchmark in
        ticks.withUnsafeMutableBufferPointer { buffer in
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                let begin = lp_cpu_counter()
                buffer[index] = TickPair(begin: begin, end: lp_cpu_counter())
            }
            benchmark.stopMeasurement()
        }
    }

    var single = [UInt64](repeating: 0, count: eventsPerSample)
    Benchmark("floor: 1 raw tick read + store", configuration: hotPath) { benchmark in
        single.withUnsafeMutableBufferPointer { buffer in
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                buffer[index] = lp_cpu_counter()
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("floor: 2 clock_gettime + store", configuration: hotPath) { benchmark in
        ticks.withUnsafeMutableBufferPointer { buffer in
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                let begin = lp_monotonic_ns()
                buffer[index] = TickPair(begin: begin, end: lp_monotonic_ns())
            }
            benchmark.stopMeasurement()
        }
    }

    var instants: [(ContinuousClock.Instant, ContinuousClock.Instant)] = []
    instants.reserveCapacity(eventsPerSample)
    Benchmark("floor: 2 ContinuousClock.now + Array append", configuration: hotPath) { benchmark in
        instants.removeAll(keepingCapacity: true)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let begin = ContinuousClock.now
            instants.append((begin, ContinuousClock.now))
        }
        benchmark.stopMeasurement()
    }

    // MARK: Flush and read-back of 1M events

    let path = FileManager.default.temporaryDirectory.appendingPathComponent("launchprof-bench.lptrace").path
    let io = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(10),
        maxIterations: 15
    )

    Benchmark("flush 1M events to a file", configuration: io) { benchmark in
        LaunchTracer.reset()
        for _ in 0..<eventsPerSample { LaunchTracer.begin("Flushed").end() }
        benchmark.startMeasurement()
        try LaunchTracer.flush(to: path)
        benchmark.stopMeasurement()
    }

    // The flush at exit of a traced launch's main thread: 10,000 accounted spans and their
    // readings, as a launch takes them when its spans outlast the accounting granularity
    // (each end read, each begin attributed from the reading at the end before: spans of
    // 45 µs, 1 µs apart, on a manual clock, so every sample converts the same recording),
    // written to a file. Wall time only, not gated: `callgrind` counts its instructions
    // exactly (see TraceCollector); this row shows what a flush costs in time.
    Benchmark("flush 10,000 accounted spans to a file", configuration: io) { benchmark in
        let source = lp_tick_source_get()
        lp_tick_source_set(Int32(LP_TICK_SOURCE_MANUAL.rawValue))
        defer { lp_tick_source_set(source) }
        LaunchTracer.reset()
        LaunchTracer.setResourceAccounting(true)
        var now: UInt64 = 1_000_000_000
        for _ in 0..<10_000 {
            lp_manual_set(now)
            let span = LaunchTracer.begin("Accounted", category: .compute)
            now += 45_000
            lp_manual_set(now)
            span.end()
            now += 1_000
        }
        LaunchTracer.setResourceAccounting(false)
        benchmark.startMeasurement()
        try LaunchTracer.flush(to: path)
        benchmark.stopMeasurement()
    }

    Benchmark("read back 1M events", configuration: io) { benchmark in
        LaunchTracer.reset()
        for _ in 0..<eventsPerSample { LaunchTracer.begin("Flushed").end() }
        try LaunchTracer.flush(to: path)
        LaunchTracer.reset()
        benchmark.startMeasurement()
        let trace = try Trace.read(from: path)
        benchmark.stopMeasurement()
        precondition(trace.eventCount >= eventsPerSample)
        blackHole(trace)
    }
}

/// What a fresh thread measured, nanoseconds (written by it, read after it signals).
final class FreshThreadTimes: @unchecked Sendable {
    var first: UInt64 = 0
    var spans: UInt64 = 0
    var floor: UInt64 = 0
}

/// This process's resident memory, bytes (Linux: /proc/self/statm; 0 elsewhere).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// `count` threads that each record `events` instants and then wait until released.
final class ParkedThreads: @unchecked Sendable {
    let residentBefore = residentBytes()
    private let ready = DispatchSemaphore(value: 0)
    private let go = DispatchSemaphore(value: 0)
    private let count: Int

    init(count: Int, events: Int) {
        self.count = count
        for _ in 0..<count {
            Thread { [self] in
                for _ in 0..<events { LaunchTracer.instant("Parked") }
                ready.signal()
                go.wait()
            }.start()
        }
        for _ in 0..<count { ready.wait() }
    }

    func release() {
        for _ in 0..<count { go.signal() }
    }
}

/// A thread that records `spans` spans each time it is started.
final class SpanWorker: @unchecked Sendable {
    private let go = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var spans = 0

    init() {
        Thread { [self] in
            LaunchTracer.instant("Registered")
            while true {
                go.wait()
                for _ in 0..<spans { LaunchTracer.begin("Span").end() }
                done.signal()
            }
        }.start()
    }

    func start(spans: Int) {
        self.spans = spans
        go.signal()
    }

    func wait() { done.wait() }
}
