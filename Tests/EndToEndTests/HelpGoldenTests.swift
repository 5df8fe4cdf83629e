import Foundation
import Testing
import _LaunchProfTestSupport

/// Every command's whole `--help`, compared with its golden file under
/// `Goldens/help/` (as swift-argument-parser's `AssertHelp(for:equals:)` does):
/// the option table, the defaults it shows, the exit codes and the examples.
/// After a deliberate change: `LAUNCHPROF_UPDATE_GOLDENS=1 swift test --filter HelpGoldenTests`.
@Suite("Help golden files")
struct HelpGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Goldens/help")

    static let cases: [(arguments: [String], golden: String)] = [
        ([], "overview"), (["help", "version"], "version"),
        (["measure", "--help"], "measure"), (["compare", "--help"], "compare"), (["calibrate", "--help"], "calibrate"),
        (["report", "--help"], "report"), (["trace", "--help"], "trace"), (["merge", "--help"], "merge"),
        (["export", "--help"], "export"),
    ]

    @Test(arguments: cases)
    func theWholeHelp(_ arguments: [String], _ golden: String) throws {
        let result = try Executables.run(arguments)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        // The version changes with every release; the golden file says VERSION.
        let version = try Executables.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let help = result.stdout.replacingOccurrences(of: version + " ", with: "launchprof VERSION ")
        assertGolden(help, path: Self.directory.appendingPathComponent(golden + ".txt").path)
    }

    @Test func helpForACommandIsTheSameAsItsHelpOption() throws {
        for name in ["measure", "compare", "calibrate", "report", "trace", "merge", "export"] {
            #expect(try Executables.run(["help", name]).stdout == Executables.run([name, "--help"]).stdout)
        }
    }
}
