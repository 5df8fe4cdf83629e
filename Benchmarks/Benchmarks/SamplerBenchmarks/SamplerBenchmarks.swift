// The main-thread sampler's and the per-span accounting's cost, in one run:
//
// - the same CPU-bound "launch" (about 50 ms of hashing on the calling thread) with and
//   without a MainThreadSampler reading /proc every millisecond;
// - the sampler's own CPU per sample while the sampled thread is blocked in a system
//   call (a `read` of a pipe that another thread writes 50 ms later), where it also
//   reads what the call waits on;
// - a span begin+end with per-span resource accounting on, beside one without.
//
//   swift package --package-path Benchmarks --disable-sandbox benchmark --target SamplerBenchmarks
//
// The ratio of the two CPU-bound medians is the sampler's cost; its own CPU time per
// sample is a metric too (it runs on its own thread, so on a machine with a spare
// core the sampled thread pays little more than cache and scheduler effects).

import Benchmark
import Foundation
import LaunchHarness
import LaunchTracing

/// A fixed amount of CPU work: FNV-1a over a buffer, `rounds` times.
@inline(never)
func cpuBoundLaunch(rounds: Int) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var byte: UInt64 = 1
    for _ in 0..<rounds {
        for _ in 0..<4_096 {
            byte = byte &* 6_364_136_223_846_793_005 &+ 1
            hash = (hash ^ (byte >> 56)) &* 0x100_0000_01b3
        }
    }
    return hash
}

/// About 50 ms of work on the project's machine (a fixed count, so both
/// benchmarks do exactly the same work whatever the load when they start).
let rounds = 10_000

/// Blocks the calling thread in `read` on a pipe until a second thread writes to it
/// `milliseconds` later: a real blocking system call on a descriptor.
func blockInPipeRead(milliseconds: Int) {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return }
    let writer = fds[1]
    let thread = Thread {
        usleep(useconds_t(milliseconds * 1_000))
        var byte: UInt8 = 1
        _ = write(writer, &byte, 1)
    }
    thread.start()
    var byte: UInt8 = 0
    _ = read(fds[0], &byte, 1)
    close(fds[0])
    close(fds[1])
}

let benchmarks: @Sendable () -> Void = {
    let samplerCost = BenchmarkMetric.custom("sampler CPU ns per sample", useScalingFactor: false)
    let samplesTaken = BenchmarkMetric.custom("samples per launch", polarity: .prefersLarger, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuUser, .contextSwitches],
        timeUnits: .microseconds,
        maxDuration: .seconds(10),
        maxIterations: 100
    )
    let work = rounds

    Benchmark("CPU-bound launch, no sampler", configuration: configuration) { benchmark in
        benchmark.startMeasurement()
        blackHole(cpuBoundLaunch(rounds: work))
        benchmark.stopMeasurement()
    }

    var sampled = configuration
    sampled.metrics += [samplerCost, samplesTaken]
    Benchmark("CPU-bound launch, sampler every 1 ms", configuration: sampled) { benchmark in
        let sampler = MainThreadSampler(threadID: MainThreadSampler.currentThreadID, intervalMicroseconds: 1_000)
        sampler.start()
        benchmark.startMeasurement()
        blackHole(cpuBoundLaunch(rounds: work))
        benchmark.stopMeasurement()
        let samples = sampler.stop()
        benchmark.measurement(samplerCost, Int(sampler.costNanosecondsPerSample))
        benchmark.measurement(samplesTaken, samples.count)
    }

    var blocked = sampled
    blocked.maxIterations = 40
    Benchmark("blocked in a pipe read for 50 ms, sampler every 1 ms", configuration: blocked) { benchmark in
        let sampler = MainThreadSampler(threadID: MainThreadSampler.currentThreadID, intervalMicroseconds: 1_000)
        sampler.start()
        benchmark.startMeasurement()
        blockInPipeRead(milliseconds: 50)
        benchmark.stopMeasurement()
        let samples = sampler.stop()
        benchmark.measurement(samplerCost, Int(sampler.costNanosecondsPerSample))
        benchmark.measurement(samplesTaken, samples.count)
    }

    // Per-span accounting: 1,000 spans a sample, so wall-clock figures read as ns per span.
    let spans = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal],
        timeUnits: .nanoseconds,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 200
    )
    Benchmark("span begin+end, no accounting", configuration: spans) { benchmark in
        LaunchTracer.reset()
        LaunchTracer.setResourceAccounting(false)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            LaunchTracer.begin("Span").end()
        }
        benchmark.stopMeasurement()
    }

    Benchmark("span begin+end, resource accounting on", configuration: spans) { benchmark in
        LaunchTracer.reset()
        LaunchTracer.setResourceAccounting(true)
        defer { LaunchTracer.setResourceAccounting(false) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            LaunchTracer.begin("Span").end()
        }
        benchmark.stopMeasurement()
    }
}
