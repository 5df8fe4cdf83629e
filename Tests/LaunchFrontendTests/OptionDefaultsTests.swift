import LaunchAnalysis
import Testing

@testable import LaunchFrontend

/// The typed options (``Option``): every declared default reads as a value the
/// way a given one does, given values are checked with the option named, and the
/// gate's defaults shown in help are ``GateSettings``'s own.
@Suite("Typed options")
struct OptionDefaultsTests {
    /// Reads `arguments` against every launching and gate option of `compare`.
    func parsed(_ arguments: [String]) throws -> Arguments {
        try Arguments(
            arguments,
            options: LaunchCommandOptions.table(.compare) + [ComparisonOptions.stagesSpec] + ComparisonOptions.table)
    }

    @Test("every default of a launching command reads as a value, with nothing given")
    func defaultsRead() throws {
        for defaults in [LaunchCommandOptions.Defaults.measure, .compare, .calibrate] {
            let parsed = try Arguments([], options: LaunchCommandOptions.table(defaults))
            #expect(try parsed[LaunchCommandOptions.runs(defaults)] == defaults.runs)
            #expect(try parsed[LaunchCommandOptions.warmup] == 1)
            #expect(try parsed[LaunchCommandOptions.timeout] == 20)
            #expect(try parsed[LaunchCommandOptions.mode] == .warm)
            #expect(
                try parsed[LaunchCommandOptions.format(defaults)].map(\.rawValue).joined(separator: ",")
                    == defaults.formats)
            #expect(try parsed[LaunchCommandOptions.metric] == [.wall])
            #expect(try parsed[LaunchCommandOptions.countedRuns] == LaunchMetric.defaultCountedLaunches)
            #expect(try parsed[LaunchCommandOptions.output] == "Reports")
            #expect(try parsed[LaunchCommandOptions.ready] == nil)
        }
    }

    @Test("a given value is read with its type; a bad one names the option and the text")
    func givenValues() throws {
        let given = try parsed([
            "--runs", "7", "--timeout", "2.5", "--mode", "cold", "--stages", "7, 14", "--min-effect", "3%",
            "--alpha", "0.05", "--gate", "all, span:A", "--session-sd", "3",
        ])
        #expect(try given[LaunchCommandOptions.runs(.compare)] == 7)
        #expect(try given[LaunchCommandOptions.timeout] == 2.5)
        #expect(try given[LaunchCommandOptions.mode] == .cold)
        #expect(try given[ComparisonOptions.stages] == [7, 14])
        #expect(try given[ComparisonOptions.minimumEffect] == 3)
        #expect(try given[ComparisonOptions.alpha] == 0.05)
        #expect(try given[ComparisonOptions.gate] == ["all", "span:A"])
        #expect(try given[ComparisonOptions.sessionSD] == 3)

        for (arguments, message) in [
            (["--runs", "0"], "--runs takes a whole number from 1 to 100000, not '0'"),
            (["--stages", "20,10"], "--stages takes increasing launch counts per side such as 20,40,60, not '20,10'"),
            (["--alpha", "1"], "--alpha takes a number between 0 and 1, not '1'"),
            (["--session-sd", "101%"], "--session-sd takes a percentage from 0% to 100% such as 3%, not '101%'"),
        ] {
            let given = try parsed(arguments)
            let error = #expect(throws: UsageError.self) {
                _ = try given[LaunchCommandOptions.runs(.compare)]
                _ = try given[ComparisonOptions.stages]
                _ = try given[ComparisonOptions.alpha]
                _ = try given[ComparisonOptions.sessionSD]
            }
            #expect(error?.message == message)
        }
    }

    @Test("the gate's defaults in compare's help are GateSettings' own")
    func gateDefaultsInHelp() {
        let settings = GateSettings()
        let help = OptionSpec.helpSection(ComparisonOptions.table).split(whereSeparator: \.isWhitespace).joined(
            separator: " ")
        #expect(help.contains("percent (default \(Int(settings.minimumEffectPercent))%)"))
        #expect(help.contains("milliseconds (default \(Int(settings.minimumEffectMs))); the larger applies"))
        #expect(help.contains("α·t³ (default \(settings.alpha))"))
    }
}
