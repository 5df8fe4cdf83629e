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
    /// names (its default when left out). Both at once is refused.
    init(_ parsed: Arguments, sample option: DefaultedOption<SampleApp.Variant>) throws {
        try self.init(parsed, sampleOption: option.option.name, variant: try parsed[option])
    }

    /// The command after `--`, else the variant `option` names, `variant` when it is left out.
    init(_ parsed: Arguments, sample option: Option<SampleApp.Variant>, default variant: SampleApp.Variant) throws {
        try self.init(parsed, sampleOption: option.name, variant: try parsed[option] ?? variant)
    }

    private init(
        _ parsed: Arguments, sampleOption name: String, variant: @autoclosure () throws -> SampleApp.Variant
    ) throws {
        if parsed.command.isEmpty {
            try self.init(sample: try variant())
        } else {
            guard !parsed.isGiven(name) else {
                throw UsageError("\(name) measures the bundled sample; it cannot be combined with a command after '--'")
            }
            try self.init(command: parsed.command, verbatim: parsed[LaunchCommandOptions.keepCommandLine])
        }
    }

    /// `--base CMD` or `--base-sample VARIANT` (likewise for head).
    init(side: ComparisonSide, _ parsed: Arguments) throws {
        let name = ProgramOptions.command(side).name
        switch (try parsed[ProgramOptions.command(side)], try parsed[ProgramOptions.sample(side)]) {
        case (let command?, nil):
            try self.init(
                command: ShellWords.split(command, option: name), verbatim: parsed[LaunchCommandOptions.keepCommandLine]
            )
        case (nil, let variant?): try self.init(sample: variant)
        case (.some, .some): throw UsageError("give \(name) or \(name)-sample, not both")
        case (nil, nil): throw UsageError("compare needs \(name) CMD (or \(name)-sample), or two report files")
        }
    }

    /// The bundled sample's `variant`.
    init(sample variant: SampleApp.Variant) throws {
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
