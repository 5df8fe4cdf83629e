import Testing
import _LaunchProfTestSupport

/// `--mode cold` drops the whole machine's page cache: the help says so, and a
/// session says so on standard error when it starts (not tested here by running
/// one, which would drop the cache of everything else on the test machine).
@Suite("measure --mode cold: what it does to the machine is said")
struct ColdModeNoticeTests {
    @Test func theHelpSaysTheWholeMachinesPageCacheIsDropped() throws {
        let result = try Executables.run(["measure", "--help"])
        #expect(result.status == 0)
        let help = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(
            separator: " ")
        #expect(help.contains("drops the whole machine's page cache"))
    }

    /// The notice comes once the input is checked: bad input is still one line.
    @Test func badInputInColdModeIsStillOneLine() throws {
        let result = try Executables.run(["measure", "--mode", "cold", "--runs", "1", "--", "/nonexistent/program"])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("page cache"))
    }
}
