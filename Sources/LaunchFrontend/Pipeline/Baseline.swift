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

    /// The baseline `name` under the output folder of `options`; the name must be a plain file name.
    init(name: String, options: LaunchCommandOptions) throws {
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

    /// `<output>/baselines/NAME.spread.json`: the stored ``SessionSpread``.
    var spreadPath: String { directory + "/" + name + ".spread.json" }

    /// Writes `spread` beside this baseline (it stays when `measure --save-baseline` later renews the baseline).
    func save(_ spread: SessionSpread) throws {
        try ReportWriter.refuseLink(at: directory)
        if let problem = Files.prepareWritableDirectory(directory) {
            throw ReportError.cannotWrite(path: spreadPath, reason: problem)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try AtomicFile.write(Array(try encoder.encode(spread)) + [0x0A], named: name + ".spread.json", inFolder: directory)
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
            let spread = try JSONDecoder().decode(SessionSpread.self, from: Data(bytes))
            if let problem = spread.problem { throw UsageError("\(spreadPath): not a between-session spread: \(problem)") }
            return spread
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError("\(spreadPath): cannot read the between-session spread: \(error)")
        }
    }

    /// The drift within the two sessions of a baseline comparison
    /// (``SessionSpread/withinSessions(_:metric:blockSize:)``), in the metric that
    /// decides under `metrics`: the primary one, or CPU time under `--metric cpu`
    /// alone (wall time drifts with the load far more than CPU time, and would
    /// raise CPU time's ε by its own swing); nil when the sides share no metric
    /// (the comparison then says why).
    static func drift(base: MeasurementReport, head: MeasurementReport, metrics: [LaunchMetric] = [.wall]) -> SessionSpread? {
        guard let compared = try? ComparisonMetrics(base: base, head: head, gate: .listed([]), metrics: metrics),
              let decisive = compared.series.first(where: \.gated) ?? compared.series.first else { return nil }
        return SessionSpread.withinSessions([decisive.baseMs, decisive.headMs], metric: decisive.name)
    }

    /// The between-session allowance a comparison of `head` against the stored
    /// baseline `base` under `plan` raises ε by: the `stored` spread when it spans
    /// two sessions or more and is of the metric that decides, else the drift
    /// within the two sessions (``drift(base:head:metrics:)``); nil when no time
    /// metric is gated (`--metric instructions` alone: counts do not drift with
    /// the load, and the instruction gate has its own rule).
    static func allowance(stored: SessionSpread?, base: MeasurementReport, head: MeasurementReport, plan: ComparisonPlan) -> SessionSpread? {
        let gatesTime = plan.metrics.contains(.wall) || plan.metrics.contains(.cpu) || plan.gate != .listed([])
        guard gatesTime else { return nil }
        let drift = drift(base: base, head: head, metrics: plan.metrics)
        let usable = stored.flatMap { spread in
            spread.sessionMediansMs.count >= 2 && (drift == nil || spread.metric == drift?.metric) ? spread : nil
        }
        return usable ?? drift
    }

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
