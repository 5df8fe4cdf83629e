/// The trace written at ready, for a program that keeps running (a server, or a
/// tool that goes on after it is ready), so that launchprof can end it at once
/// and still have its spans.
///
/// Two ways, both without a signal handler (which would compete with the program's
/// own, and a flush is not async-signal-safe):
/// - **At the ready mark.** When `LAUNCHPROF_FLUSH_AT` names a milestone (launchprof
///   sets it to the one `--ready` waits for: `firstFrame` by default), marking it
///   writes the trace to `LAUNCHPROF_TRACE` on the marking thread, then says
///   `flushed` on the ready pipe.
/// - **On request.** When `LAUNCHPROF_CONTROL_FD` names a descriptor (launchprof
///   sets it when it sees the launch ready itself: a port, a stdout line, a file), a
///   detached thread started with the first traced event says `listening` and reads
///   it; at a `flush` line it writes the trace and says `flushed`.
///
/// The trace is written once per process: the exit that may follow writes no second
/// one. LaunchHarness, which writes its own trace when launch ends, turns both off
/// (``disable()``).
package enum ReadyFlush {
    /// The milestone whose mark writes the trace, read once.
    static let milestone: Milestone? = ProcessEnvironment.value(LaunchContract.Variable.flushAtMilestone)
        .flatMap(Milestone.init(id:))

    /// The control descriptor, read once; nil when unset or not a descriptor number.
    static let controlDescriptor: Int32? = ProcessEnvironment.value(LaunchContract.Variable.controlDescriptor)
        .flatMap { Int32($0) }.flatMap { $0 >= 0 ? $0 : nil }

    private static let lock = Lock()
    nonisolated(unsafe) private static var disabled = false
    nonisolated(unsafe) private static var readerStarted = false

    /// Turns the flush at the mark and on request off: the caller writes the trace
    /// itself (LaunchHarness, at the end of launch). A request is still answered,
    /// without a flush, so launchprof does not wait for one.
    package static func disable() {
        lock.withLock { disabled = true }
    }

    private static var isDisabled: Bool { lock.withLock { disabled } }

    /// Called after `milestone` was marked and announced: writes the trace and says
    /// `flushed` when `milestone` is the one launchprof named.
    static func markReached(_ milestone: Milestone) {
        guard milestone == Self.milestone, !isDisabled else { return }
        LaunchTracer.flushForExit()
        ReadyPipe.write(.flushed)
    }

    /// Starts the control reader, once, when launchprof passed a control descriptor.
    static func startControlReaderIfRequested() {
        guard let descriptor = controlDescriptor else { return }
        let start = lock.withLock { () -> Bool in
            defer { readerStarted = true }
            return !readerStarted
        }
        guard start else { return }
        Platform.prepareToWait(on: descriptor)
        DetachedThread.start(name: "launchprof-ctl") {
            ReadyPipe.write(.listening)
            var pending: [UInt8] = []
            while let line = Platform.readLine(descriptor, pending: &pending) {
                guard line == LaunchContract.flushRequest else { continue }
                if !isDisabled { LaunchTracer.flushForExit() }
                ReadyPipe.write(.flushed)
            }
        }
    }
}
