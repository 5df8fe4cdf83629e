/// An OTLP trace export: the spans of one resource and one instrumentation
/// scope, as `opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest`
/// holds them. ``json()`` writes its OTLP/JSON form.
///
/// ``init(report:serviceName:identifiers:)`` makes one from a measurement
/// report: one trace per launch.
///
/// ```swift
/// var ids = OTLPIdentifiers()
/// let request = OTLPTraceRequest(report: report, identifiers: &ids)
/// let body = request.json()   // POST to {endpoint}/v1/traces
/// ```
public struct OTLPTraceRequest: Sendable, Equatable {
    /// The resource's attributes: the program, the machine, the measurement.
    public var resourceAttributes: [OTLPAttribute]
    /// The instrumentation scope's name (`launchprof`).
    public var scopeName: String
    /// The instrumentation scope's version (the version of `launchprof`).
    public var scopeVersion: String
    /// Every span, each launch's root first, then its phases, then the app's spans.
    public var spans: [OTLPSpan]

    /// Makes a request from its parts.
    public init(resourceAttributes: [OTLPAttribute], scopeName: String, scopeVersion: String, spans: [OTLPSpan]) {
        self.resourceAttributes = resourceAttributes
        self.scopeName = scopeName
        self.scopeVersion = scopeVersion
        self.spans = spans
    }
}

/// One OTLP span (`opentelemetry.proto.trace.v1.Span`).
public struct OTLPSpan: Sendable, Equatable {
    /// OTLP's `Span.SpanKind`; launches are all internal work.
    public enum Kind: Int, Sendable {
        /// `SPAN_KIND_INTERNAL`.
        case `internal` = 1
    }

    /// The trace (the launch) the span belongs to.
    public var traceID: OTLPTraceID
    /// The span's own id.
    public var spanID: OTLPSpanID
    /// The enclosing span; nil for a launch's root span.
    public var parentSpanID: OTLPSpanID?
    /// The span's name.
    public var name: String
    /// Its kind (always internal).
    public var kind: Kind = .internal
    /// When it began, Unix nanoseconds.
    public var startUnixNanoseconds: UInt64
    /// When it ended, Unix nanoseconds.
    public var endUnixNanoseconds: UInt64
    /// Its attributes.
    public var attributes: [OTLPAttribute]
    /// Events on it (findings).
    public var events: [OTLPEvent] = []
    /// Its status; nil leaves it unset.
    public var status: OTLPStatus?

    /// Makes a span.
    public init(
        traceID: OTLPTraceID, spanID: OTLPSpanID, parentSpanID: OTLPSpanID?, name: String,
        startUnixNanoseconds: UInt64, endUnixNanoseconds: UInt64, attributes: [OTLPAttribute],
        events: [OTLPEvent] = [], status: OTLPStatus? = nil
    ) {
        self.traceID = traceID
        self.spanID = spanID
        self.parentSpanID = parentSpanID
        self.name = name
        self.startUnixNanoseconds = startUnixNanoseconds
        self.endUnixNanoseconds = endUnixNanoseconds
        self.attributes = attributes
        self.events = events
        self.status = status
    }
}

/// An event on a span (`Span.Event`): here, a finding of the advisor.
public struct OTLPEvent: Sendable, Equatable {
    /// The event's name (a finding's rule id).
    public var name: String
    /// When it happened, Unix nanoseconds.
    public var unixNanoseconds: UInt64
    /// Its attributes.
    public var attributes: [OTLPAttribute]

    /// Makes an event.
    public init(name: String, unixNanoseconds: UInt64, attributes: [OTLPAttribute]) {
        self.name = name
        self.unixNanoseconds = unixNanoseconds
        self.attributes = attributes
    }
}

/// A span's status (`opentelemetry.proto.trace.v1.Status`).
public struct OTLPStatus: Sendable, Equatable {
    /// `Status.StatusCode`.
    public enum Code: Int, Sendable {
        /// `STATUS_CODE_UNSET`.
        case unset = 0
        /// `STATUS_CODE_OK`.
        case ok = 1
        /// `STATUS_CODE_ERROR`.
        case error = 2
    }

    /// The code.
    public var code: Code
    /// Why, for an error.
    public var message: String

    /// Makes a status.
    public init(code: Code, message: String = "") {
        self.code = code
        self.message = message
    }
}

/// A key and its value (`opentelemetry.proto.common.v1.KeyValue`).
public struct OTLPAttribute: Sendable, Equatable {
    /// The attribute's name, such as `thread.id` or `launchprof.run.index`.
    public var key: String
    /// Its value.
    public var value: OTLPValue

    /// Makes an attribute.
    public init(_ key: String, _ value: OTLPValue) {
        self.key = key
        self.value = value
    }
}

/// An attribute's value (`opentelemetry.proto.common.v1.AnyValue`).
public enum OTLPValue: Sendable, Equatable {
    /// `stringValue`.
    case string(String)
    /// `intValue` (64-bit, written as a decimal string in JSON).
    case int(Int64)
    /// `doubleValue`; a value that is not finite is not written.
    case double(Double)
    /// `boolValue`.
    case bool(Bool)
    /// `arrayValue` of strings.
    case strings([String])
}
