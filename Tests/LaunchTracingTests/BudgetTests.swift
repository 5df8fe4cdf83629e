import Foundation
import LaunchTracing
import Testing
import _LaunchProfTestSupport

/// Launch budgets declared in code, parsed from JSON, and loaded from a
/// `launchprof.json` file.
@Suite("Budgets")
struct BudgetTests {
    let scratch = ScratchDirectory("lp-budget")

    @Test func theDefaultIsApplesFigure() {
        let budget = LaunchBudget.default
        #expect(budget.timeToFirstFrameMs == 400)
        #expect(budget.backgroundTimeToFirstFrameMs == 200)
        #expect(budget.hooksMs.isEmpty)
        #expect(budget.spansMs.isEmpty)
        #expect(budget.requiredForFirstFrame.isEmpty)
    }

    @Test func aBudgetInCodeKeepsItsValues() {
        let budget = LaunchBudget(
            timeToFirstFrameMs: 300, backgroundTimeToFirstFrameMs: 120,
            hooksMs: [.willFinishLaunching: 40, .didFinishLaunching: 150], spansMs: ["DecodeCatalog": 30],
            requiredForFirstFrame: ["ReadCatalog"])
        #expect(budget.timeToFirstFrameMs == 300)
        #expect(budget.backgroundTimeToFirstFrameMs == 120)
        #expect(budget.hooksMs == [.willFinishLaunching: 40, .didFinishLaunching: 150])
        #expect(budget.spansMs == ["DecodeCatalog": 30])
        #expect(budget.requiredForFirstFrame == ["ReadCatalog"])
        #expect(budget != .default)
    }

    static let fullFile = """
        {
          "timeToFirstFrameMs": 350,
          "backgroundTimeToFirstFrameMs": 150.5,
          "hooks": { "willFinishLaunching": 50, "didFinishLaunching": 200 },
          "spans": { "DecodeCatalog": 30, "Read \\"Settings\\"": 2.25 },
          "requiredForFirstFrame": ["ReadCatalog", "DecodeCatalog"]
        }
        """

    @Test func everyKeyIsReadFromJSON() throws {
        let budget = try LaunchBudget(json: Self.fullFile)
        #expect(budget.timeToFirstFrameMs == 350)
        #expect(budget.backgroundTimeToFirstFrameMs == 150.5)
        #expect(budget.hooksMs == [.willFinishLaunching: 50, .didFinishLaunching: 200])
        #expect(budget.spansMs == ["DecodeCatalog": 30, "Read \"Settings\"": 2.25])
        #expect(budget.requiredForFirstFrame == ["ReadCatalog", "DecodeCatalog"])
    }

    @Test func missingKeysKeepTheirDefaults() throws {
        let budget = try LaunchBudget(json: #"{"hooks": {"didFinishLaunching": 120}}"#)
        #expect(budget.timeToFirstFrameMs == 400)
        #expect(budget.backgroundTimeToFirstFrameMs == 200)
        #expect(budget.hooksMs == [.didFinishLaunching: 120])
        #expect(try LaunchBudget(json: "{}") == .default)
    }

    @Test func theJSONFormRoundTrips() throws {
        let budget = try LaunchBudget(json: Self.fullFile)
        #expect(try LaunchBudget(json: budget.json) == budget)
        #expect(try LaunchBudget(json: LaunchBudget.default.json) == .default)
    }

    /// A bad budget, the error it must give, and words its message must contain.
    struct BadBudget: Sendable, CustomStringConvertible {
        var json: String
        var error: LaunchBudgetError
        var mentions: [String]
        var description: String { json }
    }

    static let badBudgets: [BadBudget] = [
        BadBudget(
            json: #"{"timeToFirstFrameMs": "soon"}"#,
            error: .badValue(
                key: "timeToFirstFrameMs", value: "\"soon\"",
                expected: "a positive number of milliseconds, at most 3600000 (one hour)"),
            mentions: ["timeToFirstFrameMs", "soon"]),
        BadBudget(
            json: #"{"timeToFirstFrameMs": -5}"#,
            error: .badValue(
                key: "timeToFirstFrameMs", value: "-5",
                expected: "a positive number of milliseconds, at most 3600000 (one hour)"),
            mentions: ["timeToFirstFrameMs", "-5"]),
        BadBudget(
            json: #"{"backgroundTimeToFirstFrameMs": 0}"#,
            error: .badValue(
                key: "backgroundTimeToFirstFrameMs", value: "0",
                expected: "a positive number of milliseconds, at most 3600000 (one hour)"),
            mentions: ["backgroundTimeToFirstFrameMs", "0"]),
        BadBudget(
            json: #"{"timeToFirstFrameMs": null}"#,
            error: .badValue(
                key: "timeToFirstFrameMs", value: "null",
                expected: "a positive number of milliseconds, at most 3600000 (one hour)"),
            mentions: ["timeToFirstFrameMs", "null"]),
        BadBudget(
            json: #"{"hooks": {"didFinishLaunching": -1}}"#,
            error: .badValue(
                key: "hooks.didFinishLaunching", value: "-1",
                expected: "a positive number of milliseconds, at most 3600000 (one hour)"),
            mentions: ["hooks.didFinishLaunching", "-1"]),
        BadBudget(
            json: #"{"spans": {"DecodeCatalog": "fast"}}"#,
            error: .badValue(
                key: "spans.DecodeCatalog", value: "\"fast\"",
                expected: "a positive number of milliseconds, at most 3600000 (one hour)"),
            mentions: ["spans.DecodeCatalog", "fast"]),
        BadBudget(
            json: #"{"hooks": [50, 200]}"#,
            error: .badValue(key: "hooks", value: "an array", expected: "an object of names to milliseconds"),
            mentions: ["hooks", "an array"]),
        BadBudget(
            json: #"{"hooks": {"applicationDidLaunch": 50}}"#,
            error: .unknownKey("hooks.applicationDidLaunch", expected: ["didFinishLaunching", "willFinishLaunching"]),
            mentions: ["hooks.applicationDidLaunch", "didFinishLaunching"]),
        BadBudget(
            json: #"{"timeToFirstFrame": 400}"#,
            error: .unknownKey(
                "timeToFirstFrame",
                expected: [
                    "timeToFirstFrameMs", "backgroundTimeToFirstFrameMs", "hooks", "spans", "requiredForFirstFrame",
                    "gate", "minimumEffect", "alpha",
                ]),
            mentions: ["timeToFirstFrame", "timeToFirstFrameMs"]),
        BadBudget(
            json: #"{"requiredForFirstFrame": "ReadCatalog"}"#,
            error: .badValue(
                key: "requiredForFirstFrame", value: "\"ReadCatalog\"", expected: "an array of span names"),
            mentions: ["requiredForFirstFrame", "ReadCatalog"]),
        BadBudget(
            json: #"{"requiredForFirstFrame": ["ReadCatalog", 7]}"#,
            error: .badValue(key: "requiredForFirstFrame[1]", value: "7", expected: "a span name (a string)"),
            mentions: ["requiredForFirstFrame[1]", "7"]),
        BadBudget(
            json: "[400]",
            error: .badValue(key: "(top level)", value: "an array", expected: "an object"),
            mentions: ["top level", "an object"]),
        BadBudget(
            json: #"{"timeToFirstFrameMs" 400}"#,
            error: .invalidJSON("invalid JSON at byte 22: expected ':'"),
            mentions: ["byte 22", "':'"]),
    ]

    @Test(arguments: badBudgets)
    func aBadBudgetIsRejectedNamingTheKeyAndValue(_ bad: BadBudget) {
        #expect(throws: bad.error) { try LaunchBudget(json: bad.json) }
        do {
            _ = try LaunchBudget(json: bad.json)
        } catch {
            for word in bad.mentions {
                #expect(error.description.contains(word), "'\(error.description)' does not mention \(word)")
            }
        }
    }

    // MARK: Files

    @Test func aBudgetFileIsLoaded() throws {
        let path = scratch.url.appendingPathComponent("launchprof.json").path
        try Self.fullFile.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try LaunchBudget(contentsOf: path) == LaunchBudget(json: Self.fullFile))
    }

    @Test func aBadBudgetFileIsNamedWithTheKeyAndValue() throws {
        let path = scratch.url.appendingPathComponent("launchprof.json").path
        try #"{"timeToFirstFrameMs": "soon"}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let expected = LaunchBudgetError.badFile(
            path: path,
            problem:
                "'timeToFirstFrameMs' is \"soon\"; expected a positive number of milliseconds, at most 3600000 (one hour)"
        )
        #expect(throws: expected) { try LaunchBudget(contentsOf: path) }
        #expect(expected.description.hasPrefix(path + ": "))
    }

    @Test func aMissingBudgetFileIsNamed() throws {
        let path = scratch.url.appendingPathComponent("absent.json").path
        #expect(
            throws: LaunchBudgetError.badFile(path: path, problem: "cannot read the file: no such file or directory")
        ) {
            try LaunchBudget(contentsOf: path)
        }
        // Where a file is optional (the default ./launchprof.json), its absence is no error.
        #expect(try LaunchBudget.loadIfPresent(path: path) == nil)
    }

    @Test func anOptionalBudgetFileThatIsThereIsRead() throws {
        let path = scratch.file("launchprof.json")
        try Self.fullFile.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try LaunchBudget.loadIfPresent(path: path) == LaunchBudget(json: Self.fullFile))
    }

    // MARK: Reports

    @Test func theReportFormIsTheFileFormat() throws {
        let budget = try LaunchBudget(json: Self.fullFile)
        let data = try JSONEncoder().encode(budget)
        // The same keys as a launchprof.json file, so a report's budget can be saved as one.
        #expect(try LaunchBudget(json: String(decoding: data, as: UTF8.self)) == budget)
        #expect(try JSONDecoder().decode(LaunchBudget.self, from: data) == budget)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let hooks = try #require(object["hooks"] as? [String: Double])
        #expect(hooks == ["willFinishLaunching": 50, "didFinishLaunching": 200])
    }

    @Test func anUnreadableBudgetFileIsNamed() {
        // A directory opens but is no budget: refused as such, even as root.
        let path = scratch.url.path
        #expect(
            throws: LaunchBudgetError.badFile(
                path: path, problem: "cannot read the file: it is a directory, not a regular file")
        ) {
            try LaunchBudget(contentsOf: path)
        }
    }

    @Test func aBudgetPathThatIsNoRegularFileIsRefusedAtOnce() throws {
        // Each of these used to be read without end (a device) or to block (a FIFO).
        #expect(
            throws: LaunchBudgetError.badFile(
                path: "/dev/zero", problem: "cannot read the file: it is a character device, not a regular file")
        ) {
            try LaunchBudget(contentsOf: "/dev/zero")
        }
        let fifo = scratch.file("launchprof.json")
        #expect(mkfifo(fifo, 0o644) == 0)
        let expected = LaunchBudgetError.badFile(
            path: fifo, problem: "cannot read the file: it is a FIFO, not a regular file")
        #expect(throws: expected) { try LaunchBudget(contentsOf: fifo) }
        // The optional default file is opened once: what is there is what is refused.
        #expect(throws: expected) { try LaunchBudget.loadIfPresent(path: fifo) }
    }

    @Test func aBudgetFileOverOneMebibyteIsRefused() throws {
        let path = scratch.file("large.json")
        // Valid JSON, all whitespace but the object: its size alone is refused.
        try Data((String(repeating: " ", count: LaunchBudget.maximumFileBytes) + "{}").utf8).write(
            to: URL(fileURLWithPath: path))
        #expect(
            throws: LaunchBudgetError.badFile(
                path: path, problem: "cannot read the file: it is larger than 1 MiB, the most read of such a file")
        ) {
            try LaunchBudget(contentsOf: path)
        }
        try Data(("{}" + String(repeating: " ", count: 1000)).utf8).write(to: URL(fileURLWithPath: path))
        #expect(try LaunchBudget(contentsOf: path) == LaunchBudget())
    }

    @Test func aKeyGivenTwiceIsRefusedAtEveryLevel() {
        #expect(throws: LaunchBudgetError.duplicateKey("timeToFirstFrameMs")) {
            try LaunchBudget(json: #"{"timeToFirstFrameMs": 300, "alpha": 0.05, "timeToFirstFrameMs": 500}"#)
        }
        #expect(throws: LaunchBudgetError.duplicateKey("hooks.didFinishLaunching")) {
            try LaunchBudget(json: #"{"hooks": {"didFinishLaunching": 100, "didFinishLaunching": 200}}"#)
        }
        #expect(throws: LaunchBudgetError.duplicateKey("spans.Decode")) {
            try LaunchBudget(json: #"{"spans": {"Decode": 10, "Read": 5, "Decode": 10}}"#)
        }
        #expect(throws: LaunchBudgetError.duplicateKey("minimumEffect.percent")) {
            try LaunchBudget(json: #"{"minimumEffect": {"percent": 5, "percent": 1}}"#)
        }
        #expect(
            LaunchBudgetError.duplicateKey("hooks.didFinishLaunching").description
                == "key 'hooks.didFinishLaunching' appears twice (give each key once)")
        // The same name in different objects is no duplicate.
        #expect(throws: Never.self) { try LaunchBudget(json: #"{"spans": {"alpha": 10}, "alpha": 0.05}"#) }
    }

    // MARK: Gate settings

    @Test func theGateSettingsOfAComparisonAreReadAndWrittenBack() throws {
        let budget = try LaunchBudget(
            json:
                #"{"gate": ["phase:didFinishLaunching", "span:DecodeCatalog"], "minimumEffect": {"percent": 3, "milliseconds": 2.5}, "alpha": 0.05}"#
        )
        #expect(budget.gate == ["phase:didFinishLaunching", "span:DecodeCatalog"])
        #expect(budget.minimumEffectPercent == 3)
        #expect(budget.minimumEffectMs == 2.5)
        #expect(budget.alpha == 0.05)
        #expect(try LaunchBudget(json: budget.json) == budget)
        #expect(try JSONDecoder().decode(LaunchBudget.self, from: JSONEncoder().encode(budget)) == budget)
    }

    @Test(
        "bad gate settings name the key",
        arguments: [
            (#"{"alpha": 1.5}"#, "alpha"), (#"{"alpha": 0}"#, "alpha"), (#"{"gate": "all"}"#, "gate"),
            (#"{"gate": [3]}"#, "gate[0]"), (#"{"minimumEffect": {"percent": -1}}"#, "minimumEffect.percent"),
            (#"{"minimumEffect": {"seconds": 1}}"#, "minimumEffect.seconds"),
        ])
    func badGateSettings(json: String, key: String) {
        #expect(throws: LaunchBudgetError.self) { try LaunchBudget(json: json) }
        do { _ = try LaunchBudget(json: json) } catch { #expect(error.description.contains(key), "\(error)") }
    }
}
