import LaunchAnalysis
import LaunchMeasure
import SampleApp

/// The program a command launches: one given as words, or a variant of the
/// bundled sample app (which is this executable in its sample-app mode).
struct ProgramTarget {
    /// The program and its arguments, as the reports, the file names and the
    /// progress lines show them: credentials masked (``CredentialMasking``) unless
    /// `--keep-command-line` was given.
    var command: [String]
    /// The program's arguments as given, the ones it is launched with.
    var arguments: [String]
    /// The resolved path of the program.
    var executable: String
    /// The report name it suggests: `sample-naive`, or the name its command line
    /// gives (``ReportFileName/forCommand(_:)``: `python3-m-http.server`).
    var defaultName: String
    /// A short label for comparisons: `naive`, or the name its command line gives.
    var shortName: String
    /// True for the bundled sample, whose names are fixed.
    var isSample: Bool

    /// The one choice every launching command makes: the command after `--`
    /// when one is given, else the bundled sample's variant that `option`
    /// names (its declared default, else `naive`). Both at once is refused.
    init(_ parsed: Arguments, sampleOption option: String) throws {
        if parsed.command.isEmpty {
            try self.init(sample: try parsed.choice(option) ?? SampleApp.Variant.naive.rawValue, option: option)
        } else {
            guard parsed.value(option) == nil else {
                throw UsageError(
                    "\(option) measures the bundled sample; it cannot be combined with a command after '--'")
            }
            try self.init(command: parsed.command, verbatim: parsed.has(OptionSpec.keepCommandLine.name))
        }
    }

    /// `--base CMD` or `--base-sample VARIANT` (likewise for head).
    init(side: ComparisonSide, _ parsed: Arguments) throws {
        let side = side.rawValue
        switch (parsed.value("--\(side)"), parsed.value("--\(side)-sample")) {
        case (let command?, nil):
            try self.init(
                command: ShellWords.split(command, option: "--\(side)"),
                verbatim: parsed.has(OptionSpec.keepCommandLine.name))
        case (nil, .some): try self.init(sample: try parsed.choice("--\(side)-sample")!, option: "--\(side)-sample")
        case (.some, .some): throw UsageError("give --\(side) or --\(side)-sample, not both")
        case (nil, nil): throw UsageError("compare needs --\(side) CMD (or --\(side)-sample), or two report files")
        }
    }

    /// The sample's variant named `text` (`option` names where it came from).
    init(sample text: String, option: String) throws {
        guard let variant = SampleApp.Variant(rawValue: text) else {
            let names = SampleApp.Variant.allCases.map(\.rawValue)
            throw UsageError(
                "\(option) takes \(names.dropLast().joined(separator: ", ")) or \(names.last!), not '\(text)'"
                    + suggestion(text, among: names))
        }
        try self.init(
            command: [SelfExecutable.path, CommandLineTool.sampleAppMode, "--variant", variant.rawValue],
            defaultName: "sample-\(variant.rawValue)", shortName: variant.rawValue)
        isSample = true
    }

    /// A program given as words; the first must name an executable. Its
    /// credentials are masked in ``command`` (and so in its names) unless `verbatim`.
    init(command: [String], defaultName: String? = nil, shortName: String? = nil, verbatim: Bool = false) throws {
        guard let program = command.first else { throw UsageError("no program given") }
        self.command = verbatim ? command : CredentialMasking.masked(command)
        arguments = Array(command.dropFirst())
        do {
            executable = try Launcher.resolve(program)
        } catch {
            throw UsageError("\(error)")
        }
        let derived = ReportFileName.forCommand(self.command)  // the masked words: no credential in a file name
        self.defaultName = defaultName ?? derived
        self.shortName = shortName ?? derived
        isSample = false
    }

    /// The launch request for this program under `plan`, its launches' folders made in `runs`, started as
    /// `options` say (`--pty`, `--prepare`, `--setup`, `--cleanup`).
    func request(plan: MeasurementPlan, runs: OwnedDirectory, options: LaunchCommandOptions) -> SessionRequest {
        var request = SessionRequest(
            plan: plan, executable: executable, arguments: arguments, runs: runs,
            commands: options.commands, pseudoTerminal: options.pseudoTerminal)
        request.instructionCounter = options.instructionCounter
        return request
    }
}
