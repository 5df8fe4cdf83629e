import _LaunchTracingShims

/// The tracer: records spans, instants and milestones on a monotonic clock.
///
/// Every entry point is cheap enough to leave in shipping code: a span costs
/// about two clock reads and one store of 32 bytes into a per-thread chunk of
/// memory made resident ahead of it; no lock, allocation or `String` is involved (a thread's
/// first event, and the first event of each next chunk — chunks hold 127 events
/// at first, doubling up to 8,191 — takes a chunk out of line, in about a microsecond). The
/// process's first event makes its first 16 KiB of event memory resident itself; past that, a
/// thread of the tracer's own keeps memory resident ahead of the recording threads (where no
/// thread can be started, and in a launch whose instructions are counted, the thread that takes
/// a chunk does it). When tracing is off (``isEnabled`` is `false`) a span costs a load and a branch.
///
/// Names are `StaticString`s, so call sites pass literals. The call site
/// (`#fileID`, `#line`) is captured for every event as the address of a static
/// string and a number, and `#filePath` once per file and thread; the strings are
/// read only when the trace is written.
///
/// ```swift
/// import LaunchTracing
///
/// let span = LaunchTracer.begin("LoadSettings", category: .io)
/// let settings = try loadSettings()
/// span.end()
///
/// let catalog = try LaunchTracer.measure("DecodeCatalog") { try decode(data) }
/// LaunchTracer.instant("CacheMiss")
/// LaunchTracer.mark(.firstFrame)
/// ```
///
/// Set `LAUNCHPROF_TRACE=/path/trace.lptrace` and the trace is written
/// automatically at exit; or call ``flush(to:)`` yourself.
///
/// Thread-safety: every recording call may be made from any thread at once.
/// ``flush(to:)`` and ``snapshot()`` may run while other threads record: they
/// see every event whose recording call returned before, whole (an event is
/// published after all of it is written), with a span that had not ended yet
/// marked open. A thread with resource accounting (``setResourceAccounting(_:)``)
/// publishes its usage readings the same way, so its spans come with usage read
/// whole (a boundary whose reading was not yet published is attributed, as any
/// boundary between readings is). ``reset()`` clears every thread's buffer;
/// call it when other threads are not recording.
public enum LaunchTracer {
    // MARK: Recording

    /// Begins a span on the current thread.
    ///
    /// - Parameters:
    ///   - name: A literal naming the work, such as `"LoadSettings"`.
    ///   - category: What kind of work it is (a hint for reports).
    /// - Returns: The open span; call ``LaunchSpan/end()`` when the work is done.
    @inlinable @inline(__always)
    public static func begin(
        _ name: StaticString,
        category: SpanCategory = .general,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) -> LaunchSpan {
        guard lp_is_enabled() != 0 else { return LaunchSpan(event: nil) }
        return LaunchSpan(event: _record(UInt8(LP_EVENT_SPAN), category.rawValue, name, fileID, filePath, line))
    }

    /// Runs `body` inside a span named `name`, returning what it returns and
    /// rethrowing what it throws. The span ends either way.
    ///
    /// ```swift
    /// let catalog = try LaunchTracer.measure("DecodeCatalog") { try decode(data) }
    /// ```
    @inlinable @inline(__always) @discardableResult
    public static func measure<Result, Failure: Error>(
        _ name: StaticString,
        category: SpanCategory = .general,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let span = begin(name, category: category, fileID: fileID, filePath: filePath, line: line)
        defer { span.end() }
        return try body()
    }

    /// Runs the async `body` inside a span named `name`.
    ///
    /// The span is recorded on the thread that begins it; it may end on another.
    @inlinable @discardableResult
    public static func measure<Result>(
        _ name: StaticString,
        category: SpanCategory = .general,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        let span = begin(name, category: category, fileID: fileID, filePath: filePath, line: line)
        defer { span.end() }
        return try await body()
    }

    /// Records an instant: something that happened at one moment, such as a cache miss.
    @inlinable @inline(__always)
    public static func instant(
        _ name: StaticString,
        category: SpanCategory = .general,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) {
        guard lp_is_enabled() != 0 else { return }
        _ = _record(UInt8(LP_EVENT_INSTANT), category.rawValue, name, fileID, filePath, line)  // ends where it begins
    }

    /// Tells a listening profiler that `milestone` was reached (the ready pipe), and,
    /// when it is the milestone launchprof waits for, writes the trace up to it
    /// (``ReadyFlush``).
    @usableFromInline
    static func _announce(_ milestone: Milestone) {
        if let word = ReadyPipe.word(for: milestone) { ReadyPipe.write(word) }
        InstructionMarks.dump(at: milestone)
        ReadyFlush.markReached(milestone)
    }

    /// Marks that the program is ready for use: for a server, that it accepts
    /// requests; for a command-line tool, that it has its answer. The same
    /// milestone as an app's first frame (``Milestone/firstFrame``), so the launch
    /// is timed as `timeToFirstFrame`.
    ///
    /// Under `launchprof measure` the trace up to here is written at once and
    /// launchprof ends the program: a server needs no signal handler nor exit for
    /// its spans to reach the report.
    ///
    /// ```swift
    /// try await server.start()
    /// LaunchTracer.markReady()
    /// ```
    @inlinable @inline(__always)
    public static func markReady(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) {
        mark(.firstFrame, fileID: fileID, filePath: filePath, line: line)
    }

    /// Records a launch milestone, such as ``Milestone/firstFrame``.
    ///
    /// LaunchHarness marks every milestone itself; an app that uses the tracer
    /// alone marks ``Milestone/firstFrame`` (``markReady(fileID:filePath:line:)``
    /// for a server or a tool) and ``Milestone/fullyDrawn`` when it gets there.
    /// Under `launchprof measure` those two also tell the profiler, through the
    /// ready pipe, that the launch reached them — even with tracing off — and the
    /// one `--ready` waits for writes the trace up to it, so that launchprof can
    /// end a program that keeps running at once (``ReadyFlush``).
    @inlinable @inline(__always)
    public static func mark(
        _ milestone: Milestone,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) {
        // Announced after it is recorded (out of line: milestones are a handful per
        // launch), so the time the word carries is never before the mark's.
        defer { _announce(milestone) }
        guard lp_is_enabled() != 0 else { return }
        let buffer = lp_current_buffer() ?? ThreadRegistry.registerCurrentThread()
        _ = lp_record(  // a mark ends where it begins
            buffer, UInt8(LP_EVENT_MARK), milestone.rawValue, nil,
            UnsafeRawPointer(fileID.utf8Start), UnsafeRawPointer(filePath.utf8Start), UInt32(truncatingIfNeeded: line),
            0)
    }

    @inlinable @inline(__always)
    static func _record(
        _ kind: UInt8, _ category: UInt8, _ name: StaticString, _ fileID: StaticString,
        _ filePath: StaticString, _ line: UInt
    ) -> UnsafeMutablePointer<lp_event>? {
        let buffer = lp_current_buffer() ?? ThreadRegistry.registerCurrentThread()
        let accounted = buffer.pointee.accounting
        if name.hasPointerRepresentation {
            return lp_record(
                buffer, kind, category,
                UnsafeRawPointer(name.utf8Start), UnsafeRawPointer(fileID.utf8Start),
                UnsafeRawPointer(filePath.utf8Start),
                UInt32(truncatingIfNeeded: line), accounted)
        } else {
            return lp_record(
                buffer, kind | UInt8(LP_EVENT_FLAG_SCALAR_NAME), category,
                UnsafeRawPointer(bitPattern: UInt(name.unicodeScalar.value)), UnsafeRawPointer(fileID.utf8Start),
                UnsafeRawPointer(filePath.utf8Start),
                UInt32(truncatingIfNeeded: line), accounted)
        }
    }

    // MARK: Control

    /// Whether events are being recorded. Turning it off makes every recording
    /// call cost a load and a branch. `LAUNCHPROF_TRACING=0` turns it off at start.
    public static var isEnabled: Bool {
        get { lp_is_enabled() != 0 }
        set { lp_set_enabled(newValue ? 1 : 0) }
    }

    /// The most memory, in bytes, that every thread's events may take together;
    /// events past it are dropped and counted (``TraceThread/dropped``).
    /// Default 64 MiB, or `LAUNCHPROF_TRACE_BUFFER_MB`.
    ///
    /// An event takes 32 bytes, so the default holds about 2.1 million events.
    /// A thread's memory grows with what it records, in chunks of 4 KiB to
    /// 256 KiB; a thread that exited gives its chunks back at ``reset()``.
    ///
    /// Set it before the first event: the first event reserves address space
    /// for this many bytes (reserved, not resident). Afterwards it can be
    /// lowered, or raised back up to what was reserved; a larger value is
    /// ignored and reading the property shows the limit in force.
    public static var bufferLimitBytes: Int {
        get { Int(clamping: lp_buffer_cap_get()) }
        set { _ = lp_buffer_cap_set(UInt64(max(0, newValue))) }
    }

    /// The bytes of event memory the threads hold now (whole chunks).
    public static var bufferBytesInUse: Int { Int(clamping: lp_buffer_used()) }

    /// Which clock the tracer reads.
    public static var clockSource: TraceClockSource {
        TraceClockSource(tickSource: lp_tick_source_get())
    }

    /// Discards every recorded event and drop count, keeping the buffers.
    public static func reset() {
        ThreadRegistry.shared.reset()
    }

    // MARK: Output

    /// Everything recorded so far, decoded: the in-memory form of a trace file.
    public static func snapshot() -> Trace {
        TraceCollector.collect()
    }

    /// Writes everything recorded so far to `path` in the LaunchProf trace format.
    ///
    /// The file is written to a temporary name and renamed, so a reader never
    /// sees half a trace.
    public static func flush(to path: String) throws(TraceFileError) {
        let (head, sections, tail) = TraceCollector.encodeForFlush()
        try Platform.writeFile(path, head, sections, tail)
    }

    /// Writes the trace to `LAUNCHPROF_TRACE` at exit, once, if it names a path.
    /// Called automatically when the first thread registers.
    static func flushAtExitIfRequested() {
        ReadyFlush.startControlReaderIfRequested()
        guard let path = ProcessEnvironment.value(LaunchContract.Variable.trace), !path.isEmpty else { return }
        Platform.atExit {
            LaunchTracer.flushForExit()
        }
    }

    /// Flushes to `LAUNCHPROF_TRACE` now, once per process (the harness calls this
    /// before exiting on its own; the atexit handler then does nothing).
    public static func flushForExit() {
        guard ThreadRegistry.shared.claimExitFlush(),
            let path = ProcessEnvironment.value(LaunchContract.Variable.trace), !path.isEmpty
        else { return }
        do {
            try flush(to: path)
        } catch {
            Platform.writeStandardError("launchprof: \(error)\n")
        }
    }
}
