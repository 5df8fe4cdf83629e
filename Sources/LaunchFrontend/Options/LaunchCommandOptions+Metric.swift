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
    /// before any launch: a ready condition that ends a launch before its exit is
    /// refused with instructions (callgrind writes its counts at the exit), and so is
    /// a machine without valgrind (the line says how to install it).
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
                "--metric instructions cannot end a launch at --ready \(ready): callgrind writes its counts only "
                    + "when the program exits (use --ready exit, or leave --ready out)")
        }
        do { return (metrics, countedRuns, try InstructionCounter.locate()) } catch {
            throw UsageError("--metric instructions: \(error)")
        }
    }
}
