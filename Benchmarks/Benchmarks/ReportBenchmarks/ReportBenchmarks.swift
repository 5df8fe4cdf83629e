// What it costs to render every report format of a large measurement.
//
//   swift package --package-path Benchmarks --disable-sandbox benchmark --target ReportBenchmarks
//
// The reports are synthetic but go through the real pipeline: a trace per run
// (nested spans on the main thread, milestones), LaunchTimeline.build, RunRecords,
// MeasurementReport (profile, findings, verdict, outcome), built by the root
// package's _SyntheticReports, which the unit tests use too. 100 runs of 1,000
// spans, and 100 runs of 10,000 spans, rendered and read back. ExportBenchmarks.swift
// exports the first as OpenTelemetry spans. Benchmarks/big-report.py measures a real
// app's report of 100 runs × 10,000 spans through the launchprof command.

import Benchmark
import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing
import _SyntheticReports

let benchmarks: @Sendable () -> Void = {
    exportBenchmarks()
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(5), maxIterations: 10)
    let thousand = ReportDocument.measurement(SyntheticReports.synthetic(runs: 100, spans: 1_000))
    let tenThousand = ReportDocument.measurement(SyntheticReports.synthetic(runs: 100, spans: 10_000))

    Benchmark("every format, 100 runs × 1,000 spans", configuration: configuration) { benchmark in
        for format in ReportFormat.allCases {
            blackHole(try format.render(thousand))
        }
    }
    // Reading the large report's JSON back (what `launchprof report` does first): the span
    // tables parsed straight from the bytes, the rest by JSONDecoder. Big-report.py measures
    // the same for a real app's report, against Python's json.load.
    let tenThousandJSON = Data((try? JSONReport.render(tenThousand)) ?? [])
    Benchmark(
        "read JSON, 100 runs × 10,000 spans",
        configuration: Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(5), maxIterations: 3)
    ) { benchmark in
        blackHole(try JSONReport.readDocument(tenThousandJSON, path: "synthetic.json"))
    }
    // Each format of the large report, with its size (the custom metric, in bytes).
    let size = BenchmarkMetric.custom("output size (bytes)", polarity: .prefersSmaller, useScalingFactor: false)
    for format in ReportFormat.allCases {
        let sized = Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal, size], maxDuration: .seconds(5),
            maxIterations: format == .json ? 2 : 10)
        Benchmark("\(format.rawValue), 100 runs × 10,000 spans", configuration: sized) { benchmark in
            let bytes = try format.render(tenThousand)
            benchmark.measurement(size, bytes.count)
            blackHole(bytes)
        }
    }
}
