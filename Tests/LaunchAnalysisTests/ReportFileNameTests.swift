import LaunchAnalysis
import LaunchTracing
import Testing

/// Report names from command lines, and the warning for runs that lost their trace.
@Suite("Report names")
struct ReportFileNameTests {
    @Test func aCommandLineGivesItsProgramAndArguments() {
        #expect(ReportFileName.forCommand(["python3", "-m", "http.server", "8000"]) == "python3-m-http.server-8000")
        #expect(
            ReportFileName.forCommand(["python3", "-c", "import time; time.sleep(0.1)"])
                == "python3-c-import-time-time.sleep-0.1")
        #expect(ReportFileName.forCommand(["/usr/bin/git", "--version"]) == "git-version")
        #expect(ReportFileName.forCommand(["./build/My App", "--config=/etc/Settings.JSON"]) == "my-app-settings.json")
        #expect(ReportFileName.forCommand(["./.hidden", "..", "--", "é"]) == "hidden")
        #expect(ReportFileName.forCommand(["/"]) == "program")
    }

    @Test func aLongCommandLineIsCutAndEndsWithItsHash() {
        let command = ["/opt/tools/bin/generator"] + (1...40).map { "--option-number-\($0)" }
        let name = ReportFileName.forCommand(command)
        #expect(name.count <= ReportFileName.maximumLength)
        #expect(name.hasPrefix("generator-option-number-1-"))
        #expect(name.hasSuffix("-" + ReportFileName.hash(of: command)))
        // Another command with the same beginning gets another name.
        #expect(ReportFileName.forCommand(command + ["more"]) != name)
        // A single word longer than the limit is cut too.
        let long = ReportFileName.forCommand([String(repeating: "x", count: 100)])
        #expect(long.count == ReportFileName.maximumLength && long.hasPrefix("xxxx"))
    }

    @Test func theHashIsStableAndShort() {
        let hash = ReportFileName.hash(of: ["python3", "-c", "print(1)"])
        #expect(hash.count == 8 && hash.allSatisfy(\.isHexDigit))
        #expect(hash == ReportFileName.hash(of: ["python3", "-c", "print(1)"]))
        // Word boundaries count: the same characters split otherwise hash otherwise.
        #expect(ReportFileName.hash(of: ["ab", "c"]) != ReportFileName.hash(of: ["a", "bc"]))
    }

    @Test func runsThatWroteNoTraceWhenAnotherDidAreWarnedAbout() throws {
        var traced = RunRecord(index: 1, isWarmup: false, status: .ok, timeToReadyMs: 10)
        traced.tracePath = "runs/run-1/trace.lptrace"
        let lost = (2...3).map { RunRecord(index: $0, isWarmup: false, status: .ok, timeToReadyMs: 10) }
        let failed = RunRecord(index: 4, isWarmup: false, status: .crashed, timeToReadyMs: nil)
        let warnings = try #require(LaunchProfile(runs: [traced] + lost + [failed], budget: LaunchBudget()).warnings)
        let warning = try #require(warnings.first { $0.contains("wrote no trace") })
        #expect(warning.hasPrefix("2 run(s) (run 2, run 3) wrote no trace although run 1 did"))
        // No trace anywhere: an uninstrumented program, nothing to say.
        #expect(LaunchProfile(runs: lost, budget: LaunchBudget()).warnings == nil)
    }
}

/// The one rule for given names (`--name`, baselines).
@Suite("Report names: given names")
struct GivenReportNameTests {
    @Test func plainNamesPassAndOthersAreNamed() throws {
        for name in ["main", "pr-42", "v1.2_rc", "spread", "main.spread2"] {
            #expect(ReportFileName.problem(with: name) == nil, "\(name)")
        }
        #expect(try #require(ReportFileName.problem(with: "main.spread")).contains(".spread"))
        #expect(try #require(ReportFileName.problem(with: "a b")).contains("'a-b'"))
        let newline = try #require(ReportFileName.problem(with: "a\nb"))
        #expect(!newline.contains("\n") && newline.contains("\\n"))
        let longest = String(repeating: "x", count: ReportFileName.maximumGivenLength)
        #expect(ReportFileName.problem(with: longest) == nil)
        // Issue 33, finding 8: look-alike names (composed and decomposed, a Cyrillic letter) are refused.
        for lookAlike in ["caf\u{E9}", "cafe\u{301}", "m\u{430}in", "\u{FF4D}ain"] {
            #expect(
                try #require(ReportFileName.problem(with: lookAlike)).contains("ASCII"),
                "\(lookAlike.unicodeScalars.map(\.value))")
        }
        #expect(longest.utf8.count + ReportFileName.longestSuffix.utf8.count <= 255)
        #expect(ReportFileName.problem(with: longest + "x") != nil)
    }
}
