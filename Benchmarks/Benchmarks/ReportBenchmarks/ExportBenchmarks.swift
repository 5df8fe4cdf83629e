// What it costs to export a large measurement as OpenTelemetry spans
// (OTLP/JSON), with the same synthetic report the format benchmarks render.
//
//   swift package --package-path Benchmarks --disable-sandbox benchmark --target ReportBenchmarks --filter OTLP

import Benchmark
import LaunchExport
import _SyntheticReports

/// A generator whose sequence follows from its seed (SplitMix64), so every
/// iteration exports the same ids.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The export benchmarks: the whole export (report → spans → OTLP/JSON bytes)
/// of 100 runs × 1,000 spans, and the encoder alone, with its throughput.
func exportBenchmarks() {
    let report = SyntheticReports.synthetic(runs: 100, spans: 1_000)
    let size = BenchmarkMetric.custom("output size (bytes)", polarity: .prefersSmaller, useScalingFactor: false)
    let throughput = BenchmarkMetric.custom(
        "encoder throughput (MB/s)", polarity: .prefersLarger, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, size], maxDuration: .seconds(5), maxIterations: 10
    )

    Benchmark("OTLP export, 100 runs × 1,000 spans", configuration: configuration) { benchmark in
        var identifiers = OTLPIdentifiers(source: SplitMix64(state: 15))
        let bytes = OTLPTraceRequest(report: report, identifiers: &identifiers).json()
        benchmark.measurement(size, bytes.count)
        blackHole(bytes)
    }

    var identifiers = OTLPIdentifiers(source: SplitMix64(state: 15))
    let request = OTLPTraceRequest(report: report, identifiers: &identifiers)
    Benchmark(
        "OTLP encode only, 100 runs × 1,000 spans",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, size, throughput], maxDuration: .seconds(5), maxIterations: 10)
    ) { benchmark in
        let clock = ContinuousClock()
        let start = clock.now
        let bytes = request.json()
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        benchmark.measurement(size, bytes.count)
        benchmark.measurement(throughput, Int(Double(bytes.count) / 1e6 / seconds))
        blackHole(bytes)
    }
}
