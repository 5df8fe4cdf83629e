import LaunchAnalysis
import LaunchMeasure

extension LaunchCommandOptions {
    /// `--metric` and `--counted-runs`, declared once for every launching command.
    static let metricOptions: [OptionSpec] = [metric.spec, countedRuns.spec]

    static let metric = DefaultedOption<[LaunchMetric]>(
        option: .init(
            spec: .value(
                "--metric", "LIST",
                "what is measured and decides, comma-separated: wall (time to ready, the default), "
                    + "cpu (user + system CPU time of the process tree), instructions (counted under valgrind in --counted-runs "
                    + "extra launches, 20–50× slower each; gated at 1% by every head launch above every base launch)",
                default: LaunchMetric.wall.rawValue, showsDefault: false)
        ) { text throws(UsageError) in
            do throws(LaunchMetric.ListError) { return try LaunchMetric.list(text) } catch {
                throw UsageError(error.description)
            }
        })

    static let countedRuns = DefaultedOption<Int>.wholeNumber(
        "--counted-runs", "N", "launches counted under valgrind per side with --metric instructions",
        in: InstructionGate.minimumLaunches...999, default: LaunchMetric.defaultCountedLaunches)

    /// The metrics `--metric` asks for, the counted launches, and the counter, checked
    /// before any launch. A ready condition launchprof sees itself (`port:`, `stdout:`,
    /// `file:`) is refused with instructions: the count would run to the moment
    /// launchprof saw it and ended the program, which under valgrind's 20–50× slowdown
    /// depends on timing, so identical launches would not count the same and the
    /// instruction rule could not gate them. The tracer's ready mark (the default, or
    /// `--ready firstFrame`/`fullyDrawn`) and the exit are counted exactly. So is a
    /// machine without valgrind (the line says how to install it).
    static func metrics(
        _ parsed: Arguments, mode: MeasureMode, ready: ReadyCondition?
    ) throws -> (metrics: [LaunchMetric], countedRuns: Int, counter: InstructionCounter?) {
        let metrics = try parsed[Self.metric]
        let countedRuns = try parsed[Self.countedRuns]
        guard metrics.contains(.instructions) else { return (metrics, 0, nil) }
        if mode == .hot {
            throw UsageError(
                "--metric instructions counts launches of new processes: --mode hot cannot be counted (use warm)")
        }
        if let ready, ready.detection.isSeenByLauncher {
            throw UsageError(
                "--metric instructions cannot count to --ready \(ready): under valgrind that moment depends on timing; "
                    + "counts end at the program's exit or at the tracer's ready mark (call LaunchTracer.markReady() "
                    + "and leave --ready out, or use --ready exit)")
        }
        do { return (metrics, countedRuns, try InstructionCounter.locate()) } catch {
            throw UsageError("--metric instructions: \(error)")
        }
    }
}
