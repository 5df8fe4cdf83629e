import Foundation
import LaunchAnalysis
import LaunchReports
import LaunchTracing
import _LaunchSystem

/// A stored measurement kept for comparisons over time: `baselines/NAME.json`
/// in the output folder (by default `Reports/baselines/NAME.json`, meant to be
/// committed), and beside it, when `calibrate --save-baseline` measured one,
/// the between-session spread a comparison against it must clear
/// (`baselines/NAME.spread.json`, ``SessionSpread``).
struct Baseline {
    /// The folder baselines live in, inside the output folder.
    static let folder = "baselines"

    let name: String
    let directory: String

    /// The baseline `name` under the output folder of `options`; the name must
    /// pass ``ReportFileName/problem(with:)``, the rule `--name` follows too.
    init(name: String, options: LaunchCommandOptions) throws {
        if let problem = ReportFileName.problem(with: name) {
            throw UsageError("baseline name: \(problem)")
        }
        guard !options.toStandardOutput else {
            throw UsageError(
                "baselines are kept in the output folder (<output>/\(Self.folder)/), so '--output -' cannot be used with them"
            )
        }
        self.name = name
        directory = options.outputDirectory + "/" + Self.folder
        do { try ReportWriter.refuseLink(at: directory) } catch { throw UsageError(error.description) }
    }

    /// The writer into the baselines folder (a real folder: a link there is refused).
    var writer: ReportWriter { ReportWriter(directory: directory, refusingLink: true) }

    /// `<output>/baselines/NAME.json`.
    var path: String { writer.path(of: .json, name: name)! }

    /// `<output>/baselines/NAME.spread.json`: the stored ``SessionSpread``.
    var spreadPath: String { directory + "/" + name + ".spread.json" }

    /// `baselines/NAME.spread.json`: the spread file as a message names it, relative to the output folder.
    var spreadPathInOutput: String { Self.folder + "/" + name + ".spread.json" }

    /// Writes `spread` beside this baseline (it stays when `measure --save-baseline` later renews the baseline).
    func save(_ spread: SessionSpread) throws {
        try ReportWriter.refuseLink(at: directory)
        if let problem = Files.prepareWritableDirectory(directory) {
            throw ReportError.cannotWrite(path: spreadPath, reason: problem)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try AtomicFile.write(
                Array(try encoder.encode(spread)) + [0x0A], named: name + ".spread.json", inFolder: directory)
        } catch {
            throw ReportError.cannotWrite(path: spreadPath, reason: "\(error)")
        }
    }

    /// The spread stored beside this baseline; nil when there is none.
    ///
    /// - Throws: a usage error (exit 2) naming the file when one is there but
    ///   cannot be read, or holds values out of range (``SessionSpread/problem``).
    func readSpread() throws -> SessionSpread? {
        guard SystemCalls.exists(spreadPath) else { return nil }
        do {
            // A regular file of at most 1 MiB, as every report launchprof reads.
            let bytes = try BoundedFile.read(spreadPath, limit: 1 << 20, followLinks: false)
            // Strictly: a key twice, or a number its field cannot hold, is named (never DecodingError's text).
            let spread = try StrictJSON.decode(SessionSpread.self, from: Data(bytes))
            if let problem = spread.problem {
                throw UsageError("\(spreadPath): not a between-session spread: \(problem)")
            }
            return spread
        } catch let error as UsageError {
            throw error
        } catch let problem as StrictJSON.Problem {
            throw UsageError("\(spreadPath): cannot read the between-session spread: \(problem)")
        } catch {
            throw UsageError("\(spreadPath): cannot read the between-session spread: \(error)")
        }
    }

    /// Writes `report`'s document (a measurement) as this baseline: the JSON
    /// report's own bytes, rendered once for both files.
    func save(_ report: inout RenderedReport) throws(ReportError) {
        try ReportWriter.refuseLink(at: directory)
        if let problem = Files.prepareWritableDirectory(directory) {
            throw .cannotWrite(path: path, reason: problem)
        }
        guard case .measurement(let measurement) = report.document else { return }
        _ = try writer.write(&report, format: .json, name: name)
        try appendToHistory(measurement)
    }

    /// Appends `measurement`'s session to the history stored beside this baseline
    /// (``SessionSpread/appending(_:)``), starting one when there is none: the sessions a
    /// later comparison against the baseline estimates their variance from. A history
    /// that cannot be read is left as it is (the comparison names it when it reads it).
    func appendToHistory(_ measurement: MeasurementReport) throws(ReportError) {
        guard let (session, primary) = SessionSpread.storedSession(of: measurement) else { return }
        let existing: SessionSpread?
        do { existing = try readSpread() } catch { return }
        let metric = existing?.metric ?? primary
        let base = existing ?? SessionSpread(metric: metric, sessionMediansMs: [], source: .sessions)
        do { try save(base.appending(session)) } catch let error as ReportError { throw error } catch {
            throw .cannotWrite(path: spreadPath, reason: "\(error)")
        }
    }

    /// Reads this baseline, named after it (its file holds the name of the
    /// report it was saved from).
    func read() throws -> MeasurementReport {
        guard SystemCalls.exists(path) else {
            throw UsageError(
                "no baseline '\(name)': \(path) does not exist (make one with 'launchprof measure --save-baseline \(name)')"
            )
        }
        do {
            var report = try JSONReport.read(from: path)
            report.name = name
            return report
        } catch { throw UsageError(error.description) }
    }
}
