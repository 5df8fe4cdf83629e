import Foundation
import LaunchTracing
import _LaunchTracingShims

/// An in-memory sink: records what the tracer sees while `body` runs and returns
/// it as a decoded ``Trace``, with no file involved.
///
/// The tracer is process-wide, so recordings are serialized: a second
/// `record` waits for the first to finish. Everything recorded before is
/// discarded, and the tracer is left empty and enabled afterwards.
///
/// ```swift
/// let trace = LaunchTraceRecorder.record {
///     try? LaunchTracer.measure("Decode") { try decode(data) }
/// }
/// #expect(trace.spans(named: "Decode").count == 1)
/// ```
public enum LaunchTraceRecorder {
    private static let gate = RecorderGate()

    /// Records while `body` runs, optionally on a manual clock.
    public static func record<Failure: Error>(
        clock: ManualLaunchClock? = nil,
        _ body: () throws(Failure) -> Void
    ) throws(Failure) -> Trace {
        try gate.exclusively { () throws(Failure) -> Trace in
            let previousSource = lp_tick_source_get()
            let wasEnabled = LaunchTracer.isEnabled
            if let clock {
                lp_manual_set(clock.initial)
                lp_tick_source_set(Int32(LP_TICK_SOURCE_MANUAL.rawValue))
            }
            LaunchTracer.resetAll()
            LaunchTracer.isEnabled = true
            defer {
                LaunchTracer.resetAll()
                lp_tick_source_set(previousSource)
                LaunchTracer.isEnabled = wasEnabled
            }
            try body()
            return LaunchTracer.snapshot()
        }
    }

    /// Runs `body` with exclusive use of the process-wide tracer, without
    /// resetting it: for tests that flush, disable or reconfigure it.
    public static func withExclusiveTracer<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try gate.exclusively(body)
    }
}

/// A mutex that serializes recordings (not re-entrant).
final class RecorderGate: @unchecked Sendable {
    private let lock = NSLock()

    func exclusively<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

extension Trace {
    /// Every span with this name, on any thread.
    public func spans(named name: String) -> [TraceEvent] {
        events(named: name).filter { $0.kind == .span }
    }

    /// Every event with this name, on any thread, in begin order.
    public func events(named name: String) -> [TraceEvent] {
        guard let id = strings.firstIndex(of: name) else { return [] }
        return threads.flatMap { $0.events.filter { $0.nameID == UInt32(id) } }
            .sorted { $0.beginNanoseconds < $1.beginNanoseconds }
    }
}
