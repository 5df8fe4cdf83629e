import LaunchAnalysis
import LaunchReports
import _LaunchSystem

/// A stored measurement kept for comparisons over time: `baselines/NAME.json`
/// in the output folder (by default `Reports/baselines/NAME.json`, meant to be
/// committed).
struct Baseline {
    /// The folder baselines live in, inside the output folder.
    static let folder = "baselines"

    let name: String
    let directory: String

    /// The baseline `name` under the output folder of `options`; the name must be a plain file name.
    init(name: String, options: MeasureOptions) throws {
        guard !name.isEmpty, ReportFileName.safe(name) == name, name.contains(where: { $0 != "." }) else {
            throw UsageError("a baseline name takes letters, digits, '-', '_' and '.', not '\(name)'")
        }
        guard !options.toStandardOutput else {
            throw UsageError("baselines are kept in the output folder (<output>/\(Self.folder)/), so '--output -' cannot be used with them")
        }
        self.name = name
        directory = options.outputDirectory + "/" + Self.folder
        do { try ReportWriter.refuseLink(at: directory) } catch { throw UsageError(error.description) }
    }

    /// The writer into the baselines folder (a real folder: a link there is refused).
    var writer: ReportWriter { ReportWriter(directory: directory, refusingLink: true) }

    /// `<output>/baselines/NAME.json`.
    var path: String { writer.path(of: .json, name: name)! }

    /// Writes `report`'s document (a measurement) as this baseline: the JSON
    /// report's own bytes, rendered once for both files.
    func save(_ report: inout RenderedReport) throws(ReportError) {
        try ReportWriter.refuseLink(at: directory)
        if let problem = Files.prepareWritableDirectory(directory) {
            throw .cannotWrite(path: path, reason: problem)
        }
        guard case .measurement = report.document else { return }
        _ = try writer.write(&report, format: .json, name: name)
    }

    /// Reads this baseline, named after it (its file holds the name of the
    /// report it was saved from).
    func read() throws -> MeasurementReport {
        guard SystemCalls.exists(path) else {
            throw UsageError("no baseline '\(name)': \(path) does not exist (make one with 'launchprof measure --save-baseline \(name)')")
        }
        do {
            var report = try JSONReport.read(from: path)
            report.name = name
            return report
        } catch { throw UsageError(error.description) }
    }
}
