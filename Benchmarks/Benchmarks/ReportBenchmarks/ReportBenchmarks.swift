// What it costs to render every report format of a large measurement.
//
//   swift package --package-path Benchmarks --disable-sandbox benchmark --target ReportBenchmarks
//
// The reports are synthetic but go through the real pipeline: a trace per run
// (nested spans on the main thread, milestones), LaunchTimeline.build, RunRecords,
// MeasurementReport (profile, findings, verdict, outcome). 100 runs of 1,000
// spans, and 100 runs of 10,000 spans, rendered and read back. ExportBenchmarks.swift
// exports the first as OpenTelemetry spans. Benchmarks/big-report.py measures a real
// app's report of 100 runs × 10,000 spans through the launchprof command.

import Benchmark
import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing

/// A measurement of `runs` launches with `spans` main-thread spans each.
func syntheticReport(runs: Int, spans: Int) -> MeasurementReport {
    var strings = ["", "App/Launch.swift", "App/Catalog.swift"]
    for index in 0..<64 { strings.append("Work\(index)") }
    var records: [RunRecord] = []
    for run in 1...runs {
        var events: [TraceEvent] = []
        var usage: [SpanUsage] = []
        let ms: UInt64 = 1_000_000
        let spawn = UInt64(run) * 10_000 * ms
        func mark(_ milestone: Milestone, _ at: UInt64) {
            events.append(TraceEvent(kind: .mark, category: milestone.rawValue, nameID: 0, beginNanoseconds: spawn + at, endNanoseconds: spawn + at))
        }
        mark(.main, 5 * ms)
        mark(.willFinishLaunchingBegin, 6 * ms)
        mark(.willFinishLaunchingEnd, 7 * ms)
        mark(.didFinishLaunchingBegin, 7 * ms)
        // Spans in pairs, parent and child, 30 µs apart, with CPU accounted.
        let step: UInt64 = 30_000 + UInt64(run % 7) * 100
        for index in 0..<spans {
            let begin = spawn + 8 * ms + UInt64(index / 2) * 2 * step + (index % 2 == 1 ? step / 4 : 0)
            let length = index % 2 == 0 ? 2 * step - 1_000 : step
            events.append(TraceEvent(
                kind: .span, category: UInt8(index % 7), nameID: UInt32(3 + index % 64), fileID: UInt32(1 + index % 2),
                line: UInt32(10 + index % 200), beginNanoseconds: begin, endNanoseconds: begin + length))
            usage.append(SpanUsage(eventIndex: UInt32(events.count - 1), usage: ResourceUsage(cpuNanoseconds: length * 3 / 4)))
        }
        let end = spawn + 8 * ms + UInt64(spans / 2 + 1) * 2 * step
        mark(.didFinishLaunchingEnd, end - spawn)
        mark(.firstFrame, end - spawn + ms)
        let thread = TraceThread(index: 0, osThreadID: 1, name: "main", isMain: true, events: events, usage: usage)
        let trace = Trace(
            clockSource: .manual, processID: Int32(run), spawn: SpawnTime(nanoseconds: spawn, source: .parent),
            runtimeInitNanoseconds: spawn + 2 * ms, flushNanoseconds: end + 10 * ms,
            metadata: [LaunchContract.MetadataKey.launchOptions: LaunchOptions.userTap.json], strings: strings, threads: [thread])
        let timeline = LaunchTimeline.build(from: trace).first
        records.append(RunRecord(
            index: run, isWarmup: false, status: .ok, timeToReadyMs: Double(end + ms - spawn) / 1e6, timeline: timeline))
    }
    let configuration = MeasureConfiguration(
        commandLine: ["launchprof", "measure"], command: ["app"], runs: runs, warmup: 0, mode: .warm, ready: .firstFrame,
        readyIsDefault: true, timeoutSeconds: 20, budget: LaunchBudget(), budgetSource: BudgetProvenance(origin: .default),
        launchOptions: nil)
    return MeasurementReport(
        name: "synthetic", createdAt: "2026-11-23T00:00:00Z",
        environment: MachineEnvironment(hostname: "bench", operatingSystem: "Linux", cpuModel: "cpu", cpuCount: 2, clockSource: "manual"),
        configuration: configuration, runs: records)
}

let benchmarks: @Sendable () -> Void = {
    exportBenchmarks()
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(5), maxIterations: 10)
    let thousand = ReportDocument.measurement(syntheticReport(runs: 100, spans: 1_000))
    let tenThousand = ReportDocument.measurement(syntheticReport(runs: 100, spans: 10_000))

    Benchmark("every format, 100 runs × 1,000 spans", configuration: configuration) { benchmark in
        for format in ReportFormat.allCases {
            blackHole(try format.render(thousand))
        }
    }
    // Reading the large report's JSON back (what `launchprof report` does first): the span
    // tables parsed straight from the bytes, the rest by JSONDecoder. Big-report.py measures
    // the same for a real app's report, against Python's json.load.
    let tenThousandJSON = Data((try? JSONReport.render(tenThousand)) ?? [])
    Benchmark("read JSON, 100 runs × 10,000 spans", configuration: Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(5), maxIterations: 3)) { benchmark in
        blackHole(try JSONReport.readDocument(tenThousandJSON, path: "synthetic.json"))
    }
    // Each format of the large report, with its size (the custom metric, in bytes).
    let size = BenchmarkMetric.custom("output size (bytes)", polarity: .prefersSmaller, useScalingFactor: false)
    for format in ReportFormat.allCases {
        let sized = Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal, size], maxDuration: .seconds(5), maxIterations: format == .json ? 2 : 10)
        Benchmark("\(format.rawValue), 100 runs × 10,000 spans", configuration: sized) { benchmark in
            let bytes = try format.render(tenThousand)
            benchmark.measurement(size, bytes.count)
            blackHole(bytes)
        }
    }
}
