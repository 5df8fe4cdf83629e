import Foundation
import Testing
import _LaunchProfTestSupport

/// `--name` and baseline names follow one rule, checked before the first launch:
/// a name that would be changed on its way to a file, that cannot be written, or
/// that would write a sibling's files is refused with one line and exit 2.
@Suite("Baseline files: names")
struct BaselineNameTests {
    let scratch = ScratchDirectory("lp-baseline-name")

    /// Runs `arguments` before `-- /bin/sh -c 'touch <marker>'` and expects exit 2,
    /// one line naming `fragment`, and no launch (the marker was never made).
    func expectRefusedBeforeLaunch(
        _ arguments: [String], mentions fragment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let marker = scratch.file("launched-\(UUID().uuidString)")
        let result = try Executables.run(
            arguments + ["--output", scratch.file("Reports"), "--", "/bin/sh", "-c", "touch '\(marker)'"],
            in: scratch.url)
        #expect(result.status == 2, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.split(separator: "\n").count == 1, "not one line: \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(result.stderr.contains(fragment), "\(result.stderr) lacks \(fragment)", sourceLocation: sourceLocation)
        #expect(
            !FileManager.default.fileExists(atPath: marker), "\(arguments) launched", sourceLocation: sourceLocation)
    }

    @Test func aBaselineNameThatWouldWriteASiblingsSpreadFileIsRefused() throws {
        try expectRefusedBeforeLaunch(
            ["measure", "--runs", "1", "--warmup", "0", "--save-baseline", "main.spread"], mentions: ".spread")
        try expectRefusedBeforeLaunch(
            ["measure", "--runs", "1", "--warmup", "0", "--name", "app.comparison"], mentions: ".comparison")
    }

    @Test func aNameTooLongForAFileIsRefusedBeforeTheFirstCalibrateRound() throws {
        let long = String(repeating: "b", count: 245)
        try expectRefusedBeforeLaunch(
            ["calibrate", "--rounds", "2", "--runs", "7", "--save-baseline", long], mentions: "bytes")
        try expectRefusedBeforeLaunch(["measure", "--runs", "1", "--name", long], mentions: "--name")
    }

    @Test func aNameTheFileRuleWouldChangeIsRefusedNotRewritten() throws {
        for name in ["a b", "a\nb", "a/b", "x\u{1B}[2J", "cafe\u{301}", "m\u{430}in"] {
            try expectRefusedBeforeLaunch(["measure", "--runs", "1", "--name", name], mentions: "--name")
            try expectRefusedBeforeLaunch(
                ["measure", "--runs", "1", "--save-baseline", name], mentions: "baseline name")
        }
    }
}
