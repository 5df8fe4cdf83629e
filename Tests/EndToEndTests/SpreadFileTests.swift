import Foundation
import Testing
import _LaunchProfTestSupport

/// The spread file stored beside a baseline (`baselines/NAME.spread.json`), read by
/// `compare --baseline`: a value no measurement gives is refused before any launch,
/// with one line naming the file, the field and the range; a history that is valid
/// but wide, when it leaves the comparison inconclusive, is named in the reason.
@Suite("Baseline files: spread")
struct SpreadFileTests {
    let scratch = ScratchDirectory("lp-spread-file")

    var output: String { scratch.file("Reports") }
    var spreadPath: String { output + "/baselines/main.spread.json" }

    /// Saves baseline `main` of `/bin/sh -c 'exit 0'`, then writes a version-1 spread of `medians` beside it.
    func baselineWithSpread(_ medians: String) throws {
        if !FileManager.default.fileExists(atPath: output + "/baselines/main.json") {
            let saved = try Executables.run(
                [
                    "measure", "--runs", "10", "--warmup", "1", "--ready", "exit", "--quiet", "--format", "json",
                    "--output", output, "--save-baseline", "main", "--", "/bin/sh", "-c", "exit 0",
                ], in: scratch.url)
            try #require(saved.status == 0, "\(saved.stderr)")
        }
        let json =
            #"{"kind": "session-spread", "metric": "timeToReady", "sessionMediansMs": "# + medians
            + #", "source": "sessions"}"#
        try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: spreadPath))
    }

    /// `compare --baseline main` of a program that makes `marker` when launched.
    func compare(marker: String) throws -> Executables.Result {
        try Executables.run(
            [
                "compare", "--baseline", "main", "--runs", "10", "--warmup", "1", "--ready", "exit", "--output", output,
                "--format", "terminal", "--", "/bin/sh", "-c", "touch '\(marker)'",
            ], in: scratch.url)
    }

    /// Zero, a subnormal and a microsecond-less launch beside an hour's: each made
    /// every regression below about +560 % inconclusive; each is refused, exit 2, before launching.
    @Test(arguments: [
        ("[5e-324, 11.4, 11.5]", "sessionMediansMs[0] is 5e-324"),
        ("[0, 11.4, 11.5]", "sessionMediansMs[0] is 0.0"),
        ("[3600000, 1e-6, 5]", "sessionMediansMs[1] is 1e-06"),
    ])
    func aSpreadNoMeasurementGivesIsRefusedBeforeLaunching(medians: String, field: String) throws {
        try baselineWithSpread(medians)
        let marker = scratch.file("launched-\(UUID().uuidString)")
        let result = try compare(marker: marker)
        #expect(result.status == 2, "\(medians): \(result.stderr)")
        #expect(
            result.stderr
                == "launchprof: \(spreadPath): not a between-session spread: \(field): "
                + "a median of timeToReady, a whole launch, is from 0.001 to 3600000 ms\n",
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "\(medians): launched")
    }

    /// A history whose sessions differ widely (valid values) decides the session SD: the
    /// inconclusive reason names its file and what changes it, not more launches.
    @Test func anInconclusiveComparisonOnAWideHistoryNamesTheStoredHistory() throws {
        try baselineWithSpread("[0.5, 40, 2000]")
        let marker = scratch.file("launched-\(UUID().uuidString)")
        let result = try compare(marker: marker)
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: marker))
        #expect(
            result.stdout.contains("baseline's stored history (baselines/main.spread.json: 3 sessions"),
            "\(result.stdout)")
        #expect(result.stdout.contains("'launchprof calibrate --rounds 5 --save-baseline main'"), "\(result.stdout)")
        #expect(!result.stdout.contains("a quieter machine"), "\(result.stdout)")
    }
}
