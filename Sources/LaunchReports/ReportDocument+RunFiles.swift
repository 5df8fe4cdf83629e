import LaunchAnalysis

extension ReportDocument {
    /// The document with no run pointing at a file: each run's `stdoutPath`,
    /// `stderrPath` and `tracePath` left out.
    ///
    /// For showing a report whose runs folder was not kept (its report could
    /// not be written, so the folder was removed): a line that names a run's
    /// output would point at a file that no longer exists.
    public func forgettingRunFiles() -> ReportDocument {
        switch self {
        case .measurement(let report): return .measurement(report.forgettingRunFiles())
        case .comparison(let report):
            var report = report
            report.base = report.base.forgettingRunFiles()
            report.head = report.head.forgettingRunFiles()
            return .comparison(report)
        }
    }
}

extension MeasurementReport {
    /// The report with its runs' file paths left out (``ReportDocument/forgettingRunFiles()``).
    func forgettingRunFiles() -> MeasurementReport {
        var report = self
        for index in report.runs.indices {
            report.runs[index].stdoutPath = nil
            report.runs[index].stderrPath = nil
            report.runs[index].tracePath = nil
        }
        return report
    }
}
