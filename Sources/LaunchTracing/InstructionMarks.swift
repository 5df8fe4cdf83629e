import _LaunchTracingShims

/// When launchprof counts a launch's instructions, the program runs under
/// valgrind's callgrind, which counts instructions but cannot report a running
/// count: it can only write what it counted since the last dump. The tracer has
/// it dump at every milestone (and, from its constructor, at `runtimeInit`), so
/// the main thread's instructions split into the launch's phases.
///
/// Checked once at start (``LaunchContract/Variable/countInstructions`` and
/// valgrind's `RUNNING_ON_VALGRIND` request); otherwise a dump is one load and a
/// branch, and milestones are a handful per launch.
public enum InstructionMarks {
    /// The prefix of every dump's name, `launchprof:milestone:<id>`: what the
    /// profiler reads back from callgrind's `desc: Trigger:` line.
    public static let dumpPrefix = "launchprof:milestone:"

    /// At most this many dumps a launch (each writes a file): a program that marks
    /// milestones in a loop stops dumping after it.
    public static let dumpLimit = 64

    nonisolated(unsafe) private static var dumps = 0

    /// Has callgrind write the count since the previous dump, named after `milestone`.
    static func dump(at milestone: Milestone) {
        guard lp_instruction_marks_enabled() != 0 else { return }
        // Milestones are marked from the main thread (the harness) or by the app;
        // the count only bounds the files written, so a rare race costs nothing.
        guard dumps < dumpLimit else { return }
        dumps += 1
        (dumpPrefix + milestone.id).withCString { lp_callgrind_dump_at($0) }
    }
}
