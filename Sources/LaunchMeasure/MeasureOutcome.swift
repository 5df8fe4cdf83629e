import LaunchAnalysis

/// What a measurement produced.
public struct MeasureOutcome: Sendable {
    /// The report of every completed run.
    public var report: MeasurementReport
    /// The stop signal (SIGINT, SIGTERM, SIGHUP) that ended the session early, if one did.
    public var stopSignal: Int32?
    /// Why the session ended before its last launch, when a launch could not be started.
    public var stopReason: String?

    /// True when a stop signal ended the session early.
    public var interrupted: Bool { stopSignal != nil }
}
