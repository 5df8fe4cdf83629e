import LaunchAnalysis

/// Strings read from a report capped for display: a report whose `name` is
/// 10 MB renders as fast as any other in every format but JSON (which keeps
/// every byte, to be read again). A capped string keeps its first
/// ``DisplayCap/limit`` bytes (cut at a character), then `…` and its length.
///
/// ```swift
/// DisplayCap.capped(String(repeating: "a", count: 5_000))  // "aaa…a… (5000 bytes)"
/// ```
public enum DisplayCap {
    /// How many bytes of a string from a report are shown.
    public static let limit = 1_024
    /// How many bytes of a reason (which can list every failed check) are shown.
    public static let reasonLimit = 8_192

    /// `text`, or its first `limit` bytes (whole characters), `…` and its length in bytes.
    public static func capped(_ text: String, limit: Int = DisplayCap.limit) -> String {
        let count = text.utf8.count
        guard count > limit else { return text }
        // Whole scalars only: never half of a character's bytes.
        var bytes = 0
        var end = text.unicodeScalars.startIndex
        for scalar in text.unicodeScalars {
            let size = scalar.utf8.count
            guard bytes + size <= limit else { break }
            bytes += size
            end = text.unicodeScalars.index(after: end)
        }
        return String(text.unicodeScalars[..<end]) + "… (\(count) bytes)"
    }
}

extension ReportDocument {
    /// The document with every long string read from a report capped (``DisplayCap``),
    /// as every format but JSON draws it.
    public func cappedForDisplay() -> ReportDocument {
        switch self {
        case .measurement(let report): return .measurement(report.cappedForDisplay())
        case .comparison(var report):
            report.name = DisplayCap.capped(report.name)
            report.base = report.base.cappedForDisplay()
            report.head = report.head.cappedForDisplay()
            report.warnings = report.warnings.map { DisplayCap.capped($0, limit: DisplayCap.reasonLimit) }
            report.problem = report.problem.map { DisplayCap.capped($0, limit: DisplayCap.reasonLimit) }
            report.outcome.reason = DisplayCap.capped(report.outcome.reason, limit: DisplayCap.reasonLimit)
            return .comparison(report)
        }
    }
}

extension MachineEnvironment {
    func cappedForDisplay() -> MachineEnvironment {
        var environment = self
        environment.hostname = DisplayCap.capped(hostname)
        environment.operatingSystem = DisplayCap.capped(operatingSystem)
        environment.cpuModel = DisplayCap.capped(cpuModel)
        environment.clockSource = DisplayCap.capped(clockSource)
        environment.machine = DisplayCap.capped(machine)
        return environment
    }
}

extension MeasurementReport {
    func cappedForDisplay() -> MeasurementReport {
        var report = self
        report.name = DisplayCap.capped(name)
        report.toolVersion = DisplayCap.capped(toolVersion)
        report.createdAt = DisplayCap.capped(createdAt)
        report.environment = environment.cappedForDisplay()
        report.machines = machines?.map { $0.cappedForDisplay() }
        report.configuration.command = configuration.command.map { DisplayCap.capped($0) }
        report.configuration.commandLine = configuration.commandLine.map { DisplayCap.capped($0) }
        report.stopReason = stopReason.map { DisplayCap.capped($0, limit: DisplayCap.reasonLimit) }
        report.outcome.reason = DisplayCap.capped(outcome.reason, limit: DisplayCap.reasonLimit)
        for index in report.runs.indices {
            report.runs[index].problem = runs[index].problem.map {
                DisplayCap.capped($0, limit: DisplayCap.reasonLimit)
            }
        }
        return report
    }
}
