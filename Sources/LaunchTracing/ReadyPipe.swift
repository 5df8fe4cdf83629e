/// The ready pipe of the launch contract: the descriptor `launchprof` passes in
/// `LAUNCHPROF_READY_FD`, on which the program says, one word a line, that its
/// first frame was drawn, that it is fully drawn, and that its trace is written.
///
/// ``LaunchTracer/mark(_:fileID:filePath:line:)`` writes `firstFrame` and `fullyDrawn`
/// itself, so an app that uses the tracer alone is measured to its first frame
/// as one that runs the harness is. Without the variable nothing is written.
package enum ReadyPipe {
    /// The descriptor from `LAUNCHPROF_READY_FD`, read once; nil when unset or not a descriptor number.
    static let descriptor: Int32? = ProcessEnvironment.value(LaunchContract.Variable.readyDescriptor)
        .flatMap { Int32($0) }.flatMap { $0 >= 0 ? $0 : nil }

    /// Writes `word`, with the moment it was reached (CLOCK_MONOTONIC), when a profiler is listening.
    package static func write(_ word: LaunchContract.ReadyWord) {
        guard let descriptor else { return }
        Platform.writeLine(word.line(markedAt: MonotonicClock.nanoseconds), to: descriptor)
    }

    /// The word a milestone is announced with, if any.
    static func word(for milestone: Milestone) -> LaunchContract.ReadyWord? {
        switch milestone {
        case .firstFrame: return .firstFrame
        case .fullyDrawn: return .fullyDrawn
        default: return nil
        }
    }
}
