import Foundation
import LaunchTracing
import Tracing

/// A swift-distributed-tracing `Tracer` that records every span into LaunchTracing,
/// so that `launchprof measure` names a server's own `withSpan` calls made during
/// startup (and those of the libraries it calls then) with no LaunchTracing call in
/// its code: each span is a LaunchTracing span with the operation's name and the
/// call site's `#fileID` and line.
///
/// `InstrumentationSystem.bootstrap` may be called once per process. A server with
/// no tracer of its own bootstraps this one; a server that already has one wraps
/// it, and every span goes to both (the other tracer's span carries the context,
/// the attributes, the events and the status; LaunchTracing records the span's
/// name, call site and time):
///
/// ```swift
/// import LaunchDistributedTracing
/// import Tracing
///
/// InstrumentationSystem.bootstrap(LaunchProfTracer())                      // alone
/// InstrumentationSystem.bootstrap(LaunchProfTracer(forwardingTo: otel))    // beside another tracer
///
/// try await withSpan("LoadConfig") { _ in try await loadConfig() }
/// ```
///
/// Names are interned by LaunchTracing (``LaunchTracing/LaunchTracer/begin(named:category:fileID:filePath:line:)``):
/// give spans names from a fixed set (an operation, not a request id). When
/// tracing is off (no `launchprof measure`, or `LAUNCHPROF_TRACING=0`), a span
/// costs LaunchTracing a load and a branch, plus what the forwarded tracer costs.
public struct LaunchProfTracer: Tracer {
    /// The tracer spans are forwarded to, if any.
    public let forwarded: (any LegacyTracer)?

    /// A tracer that records into LaunchTracing alone.
    public init() { forwarded = nil }

    /// A tracer that records into LaunchTracing and forwards every span, and the
    /// context's injection and extraction, to `tracer`.
    public init(forwardingTo tracer: any LegacyTracer) { forwarded = tracer }

    /// Starts a span: a LaunchTracing span named `operationName` at `fileID`:`line`,
    /// and the forwarded tracer's span.
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> LaunchProfSpan {
        let recorded = LaunchTracer.begin(named: operationName, fileID: fileID, line: line)
        let context = context()
        let inner = forwarded?.startAnySpan(
            operationName, context: context, ofKind: kind, at: instant(), function: function, file: fileID,
            line: line)
        return LaunchProfSpan(operationName: operationName, context: context, recorded: recorded, forwarded: inner)
    }

    /// Starts a span as ``startSpan(_:context:ofKind:at:function:file:line:)`` does, for the legacy API.
    public func startAnySpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> any Tracing.Span {
        startSpan(
            operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID,
            line: line)
    }

    /// Flushes the forwarded tracer (LaunchTracing writes its trace at ready or at exit).
    public func forceFlush() { forwarded?.forceFlush() }

    /// Injects through the forwarded tracer; LaunchTracing propagates nothing.
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        forwarded?.inject(context, into: &carrier, using: injector)
    }

    /// Extracts through the forwarded tracer; LaunchTracing propagates nothing.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        forwarded?.extract(carrier, into: &context, using: extractor)
    }
}

/// A span of ``LaunchProfTracer``: a LaunchTracing span, and the forwarded tracer's
/// span when there is one, which gets everything else (attributes, events, status,
/// links, errors).
///
/// LaunchTracing keeps the name the span was started with: renaming it later
/// renames the forwarded span only.
public final class LaunchProfSpan: Tracing.Span, @unchecked Sendable {
    /// The LaunchTracing span.
    let recorded: LaunchSpan
    /// The forwarded tracer's span.
    let forwarded: (any Tracing.Span)?
    private let lock = NSLock()
    private var name: String
    private var ownAttributes: SpanAttributes = [:]
    private var ended = false

    init(operationName: String, context: ServiceContext, recorded: LaunchSpan, forwarded: (any Tracing.Span)?) {
        self.name = operationName
        self.context = forwarded?.context ?? context
        self.recorded = recorded
        self.forwarded = forwarded
    }

    /// The span's context: the forwarded span's, else the one it was started in.
    public let context: ServiceContext

    /// The operation's name.
    public var operationName: String {
        get { forwarded?.operationName ?? lock.withLock { name } }
        set {
            lock.withLock { name = newValue }
            forwarded?.operationName = newValue
        }
    }

    /// The span's attributes: the forwarded span's, else kept here.
    public var attributes: SpanAttributes {
        get { forwarded?.attributes ?? lock.withLock { ownAttributes } }
        set {
            if let forwarded { forwarded.attributes = newValue } else { lock.withLock { ownAttributes = newValue } }
        }
    }

    /// True until the span ends (LaunchTracing records it while tracing is on).
    public var isRecording: Bool { forwarded?.isRecording ?? (recorded.isRecording && !lock.withLock { ended }) }

    /// Forwarded.
    public func setStatus(_ status: SpanStatus) { forwarded?.setStatus(status) }
    /// Forwarded.
    public func addEvent(_ event: SpanEvent) { forwarded?.addEvent(event) }
    /// Forwarded.
    public func addLink(_ link: SpanLink) { forwarded?.addLink(link) }
    /// Forwarded.
    public func recordError<Instant: TracerInstant>(
        _ error: Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        forwarded?.recordError(error, attributes: attributes, at: instant())
    }

    /// Ends the span, once: the LaunchTracing span now (on LaunchTracing's clock),
    /// the forwarded one at `instant`.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let first = lock.withLock {
            defer { ended = true }
            return !ended
        }
        guard first else { return }
        recorded.end()
        forwarded?.end(at: instant())
    }
}
