import LaunchAnalysis

/// What a measurement produced.
public struct MeasureOutcome: Sendable {
    /// The report of every completed run; its ``MeasurementReport/stopReason``
    /// says why the session ended early, when it did.
    public var report: MeasurementReport
    /// The stop signal (SIGINT, SIGTERM, SIGHUP) that ended the session early, if one did.
    public var stopSignal: Int32?
}
