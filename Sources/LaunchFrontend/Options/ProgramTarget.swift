import LaunchAnalysis
import LaunchMeasure
import SampleApp

/// The program a command launches: one given as words, or a variant of the
/// bundled sample app (which is this executable in its sample-app mode).
struct ProgramTarget {
    /// The program and its arguments, as the report shows them.
    var command: [String]
    /// The resolved path of the program.
    var executable: String
    /// The report name it suggests: `sample-naive`, or the name its command line
    /// gives (``ReportFileName/forCommand(_:)``: `python3-m-http.server`).
    var defaultName: String
    /// A short label for comparisons: `naive`, or the name its command line gives.
    var shortName: String
    /// True for the bundled sample, whose names are fixed.
    var isSample: Bool

    /// The sample's variant named `text` (`option` names where it came from).
    init(sample text: String, option: String) throws {
        guard let variant = SampleApp.Variant(rawValue: text) else {
            let names = SampleApp.Variant.allCases.map(\.rawValue)
            throw UsageError("\(option) takes \(names.dropLast().joined(separator: ", ")) or \(names.last!), not '\(text)'"
                + suggestion(text, among: names))
        }
        try self.init(
            command: [SelfExecutable.path, LaunchProf.sampleAppMode, "--variant", variant.rawValue],
            defaultName: "sample-\(variant.rawValue)", shortName: variant.rawValue)
        isSample = true
    }

    /// A program given as words; the first must name an executable.
    init(command: [String], defaultName: String? = nil, shortName: String? = nil) throws {
        guard let program = command.first else { throw UsageError("no program given") }
        self.command = command
        do {
            executable = try Launcher.resolve(program)
        } catch {
            throw UsageError("\(error)")
        }
        let derived = ReportFileName.forCommand(command)
        self.defaultName = defaultName ?? derived
        self.shortName = shortName ?? derived
        isSample = false
    }

    /// The launch request for this program under `plan`, its launches' folders made in `runs`, started as
    /// `options` say (`--pty`, `--prepare`, `--setup`, `--cleanup`).
    func request(plan: MeasurementPlan, runs: OwnedDirectory, options: MeasureOptions) -> MeasureRequest {
        MeasureRequest(
            plan: plan, executable: executable, arguments: Array(command.dropFirst()), runs: runs,
            commands: options.commands, pseudoTerminal: options.pseudoTerminal)
    }
}
