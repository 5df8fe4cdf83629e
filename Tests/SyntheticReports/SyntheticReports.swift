import LaunchAnalysis
import LaunchTracing

/// Large measurement reports built for speed tests and benchmarks: nested spans
/// on the main thread and milestones, through the real pipeline (a trace per
/// run, ``LaunchTimeline/build(from:)``, ``MeasurementReport``: profile,
/// findings, verdict, outcome). One builder for the unit tests and the
/// `Benchmarks/` package, so their times compare.
///
/// ```swift
/// let report = SyntheticReports.synthetic(runs: 100, spans: 10_000)
/// ```
public enum SyntheticReports {
    /// A measurement of `runs` launches with `spans` main-thread spans each (in
    /// parent and child pairs 30 µs apart, CPU accounted), named `synthetic`.
    public static func synthetic(runs: Int, spans: Int) -> MeasurementReport {
        var strings = ["", "App/Launch.swift", "App/Catalog.swift"]
        for index in 0..<64 { strings.append("Work\(index)") }
        var records: [RunRecord] = []
        for run in 1...runs {
            var events: [TraceEvent] = []
            var usage: [SpanUsage] = []
            let ms: UInt64 = 1_000_000
            let spawn = UInt64(run) * 10_000 * ms
            func mark(_ milestone: Milestone, _ at: UInt64) {
                events.append(
                    TraceEvent(
                        kind: .mark, category: milestone.rawValue, nameID: 0, beginNanoseconds: spawn + at,
                        endNanoseconds: spawn + at))
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
                events.append(
                    TraceEvent(
                        kind: .span, category: UInt8(index % 7), nameID: UInt32(3 + index % 64),
                        fileID: UInt32(1 + index % 2),
                        line: UInt32(10 + index % 200), beginNanoseconds: begin, endNanoseconds: begin + length))
                usage.append(
                    SpanUsage(
                        eventIndex: UInt32(events.count - 1), usage: ResourceUsage(cpuNanoseconds: length * 3 / 4)))
            }
            let end = spawn + 8 * ms + UInt64(spans / 2 + 1) * 2 * step
            mark(.didFinishLaunchingEnd, end - spawn)
            mark(.firstFrame, end - spawn + ms)
            let thread = TraceThread(index: 0, osThreadID: 1, name: "main", isMain: true, events: events, usage: usage)
            let trace = Trace(
                clockSource: .manual, processID: Int32(run), spawn: SpawnTime(nanoseconds: spawn, source: .parent),
                runtimeInitNanoseconds: spawn + 2 * ms, flushNanoseconds: end + 10 * ms,
                metadata: [LaunchContract.MetadataKey.launchOptions: LaunchOptions.userTap.json], strings: strings,
                threads: [thread])
            let timeline = LaunchTimeline.build(from: trace).first
            records.append(
                RunRecord(
                    index: run, isWarmup: false, status: .ok, timeToReadyMs: Double(end + ms - spawn) / 1e6,
                    timeline: timeline))
        }
        let configuration = MeasureConfiguration(
            commandLine: ["launchprof", "measure"], command: ["app"], runs: runs, warmup: 0, mode: .warm,
            ready: .firstFrame,
            readyIsDefault: true, timeoutSeconds: 20, budget: LaunchBudget(),
            budgetSource: BudgetProvenance(origin: .default),
            launchOptions: nil)
        return MeasurementReport(
            name: "synthetic", createdAt: "2026-11-23T00:00:00Z",
            environment: MachineEnvironment(
                hostname: "bench", operatingSystem: "Linux", cpuModel: "cpu", cpuCount: 2, clockSource: "manual"),
            configuration: configuration, runs: records)
    }
}
