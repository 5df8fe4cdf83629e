// The main-thread sampler's cost to the thread it samples, in one run:
// the same CPU-bound "launch" (about 50 ms of hashing on the calling thread) with and
// without a MainThreadSampler reading /proc every millisecond.
//
//   swift package --package-path Benchmarks --disable-sandbox benchmark --target SamplerBenchmarks
//
// The ratio of the two medians is the sampler's cost; its own CPU time per
// sample is a metric too (it runs on its own thread, so on a machine with a spare
// core the sampled thread pays little more than cache and scheduler effects).

import Benchmark
import Foundation
import LaunchHarness


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
}
