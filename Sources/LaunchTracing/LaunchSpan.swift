import _LaunchTracingShims

/// An open span, returned by ``LaunchTracer/begin(_:category:fileID:filePath:line:)``.
///
/// Call ``end()`` once when the work is done. A span that is never ended is kept
/// in the trace and marked open. A span begun while tracing was off, or once the
/// trace memory reached its cap (``LaunchTracer/bufferLimitBytes``), is inert:
/// `end()` does nothing.
///
/// Ending a span costs one clock read and one store. A span may be ended on
/// another thread than the one that began it.
///
/// ```swift
/// let span = LaunchTracer.begin("LoadSettings", category: .io)
/// defer { span.end() }
/// ```
@frozen
public struct LaunchSpan: @unchecked Sendable {
    @usableFromInline
    let event: UnsafeMutablePointer<lp_event>?

    @inlinable @inline(__always)
    init(event: UnsafeMutablePointer<lp_event>?) { self.event = event }

    /// True when the span is being recorded (tracing was on and the trace memory had room).
    @inlinable
    public var isRecording: Bool { event != nil }

    /// Ends the span, stamping its end time.
    @inlinable @inline(__always)
    public func end() {
        if let event {
            let end = lp_end(event)
            if event.pointee.kind & UInt8(LP_EVENT_FLAG_USAGE) != 0 {
                lp_account_end(event, end)
            }
        }
    }
}
