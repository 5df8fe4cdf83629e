// The tracer's cost, beside the floors it is measured against, in one run.
//
//   swift package --package-path Benchmarks --disable-sandbox benchmark
//
// Each hot-path benchmark does 1M operations per sample (scalingFactor .mega),
// so its wall-clock figures read as nanoseconds per operation.

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

let benchmarks: @Sendable () -> Void = {
    // Room for one sample's events on every benchmark thread; reset between samples.
    LaunchTracer.eventsPerThread = eventsPerSample + 16

    let hotPath = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions],
        scalingFactor: .mega,
        maxDuration: .seconds(3),
        maxIterations: 40
    )

    // MARK: The tracer

    Benchmark("span begin+end", configuration: hotPath) { benchmark in
        LaunchTracer.reset()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            LaunchTracer.begin("Span", category: .compute).end()
        }
    }

    Benchmark("instant", configuration: hotPath) { benchmark in
        LaunchTracer.reset()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            LaunchTracer.instant("Instant")
        }
    }

    Benchmark("disabled span", configuration: hotPath) { benchmark in
        LaunchTracer.isEnabled = false
        defer { LaunchTracer.isEnabled = true }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            LaunchTracer.begin("Disabled").end()
        }
        benchmark.stopMeasurement()
    }

    // A second thread that lives for the whole run, so no sample pays for
    // creating it or its buffer.
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
