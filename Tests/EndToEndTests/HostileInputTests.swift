import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// Input launchprof did not make — budget files, the traces a measured program
/// leaves, reports, the program's output — cannot make it hang, grow without
/// limit, lose what it measured, or take over the terminal.
///
/// Each launchprof here runs under a 4 GiB address-space limit (`ulimit -v`),
/// where it can start under one (a sanitizer's build reserves more): a read
/// without end fails fast instead of taking the machine's memory.
@Suite("hostile input")
struct HostileInputTests {
    let scratch = ScratchDirectory("lp-hostile")

    /// `ulimit -v 4194304; ` where launchprof starts under that limit, else nothing.
    static let memoryLimit: String = {
        let probe = try? Executables.run(
            ["-c", "ulimit -v 4194304; exec '\(Executables.launchprof)' --version"], executable: "/bin/sh")
        return probe?.status == 0 ? "ulimit -v 4194304; " : ""
    }()

    /// Runs launchprof under the memory limit, in `directory` (default: the scratch directory).
    func launchprof(_ arguments: [String], in directory: URL? = nil, stdout: String? = nil, timeout: Double = 120)
        throws -> Executables.Result
    {
        let quoted = ([Executables.launchprof] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let redirect = stdout.map { " > '\($0)'" } ?? ""
        return try Executables.run(
            ["-c", Self.memoryLimit + "exec " + quoted.joined(separator: " ") + redirect], executable: "/bin/sh",
            in: directory ?? scratch.url, timeoutSeconds: timeout)
    }

    /// Exit 2, one line on standard error containing each of `fragments`, and on time.
    func expectOneLineError(
        _ result: Executables.Result, _ fragments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(!result.timedOut, "launchprof hung", sourceLocation: sourceLocation)
        #expect(result.status == 2, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("warm-up") && !$0.hasPrefix("run ") }
        #expect(lines.count == 1, "expected one line, got: \(result.stderr)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(
                result.stderr.contains(fragment), "\(result.stderr) lacks \(fragment)", sourceLocation: sourceLocation)
        }
    }

    func makeFIFO(_ name: String) -> String {
        let path = scratch.file(name)
        #expect(mkfifo(path, 0o644) == 0)
        return path
    }

    // MARK: Budget files

    @Test func aBudgetPathThatIsNoRegularFileIsOneLineAndExitTwo() throws {
        let fifo = makeFIFO("fifo.json")
        let large = scratch.file("large.json")
        try Data(("{" + String(repeating: " ", count: 2 << 20) + "}").utf8).write(to: URL(fileURLWithPath: large))
        let cases: [(String, String)] = [
            ("/dev/zero", "it is a character device, not a regular file"), (fifo, "it is a FIFO, not a regular file"),
            (scratch.path, "it is a directory, not a regular file"), (large, "it is larger than 1 MiB"),
        ]
        for (path, problem) in cases {
            expectOneLineError(
                try launchprof(["measure", "--budget", path, "--runs", "1", "--", "true"]), [path, problem])
        }
        // The default ./launchprof.json, opened once.
        _ = makeFIFO("launchprof.json")
        expectOneLineError(try launchprof(["measure", "--runs", "1", "--", "true"]), ["launchprof.json", "FIFO"])
    }

    @Test func aBudgetKeyGivenTwiceIsRefusedNamingIt() throws {
        let path = try scratch.write(
            #"{"hooks": {"didFinishLaunching": 100, "didFinishLaunching": 900}}"#, to: "dup.json")
        expectOneLineError(
            try launchprof(["measure", "--budget", path, "--runs", "1", "--", "true"]),
            [path, "'hooks.didFinishLaunching' appears twice"])
    }

    // MARK: Traces

    @Test func aTraceReplacedByALinkOrAFIFOIsAnInvalidRunAndTheOthersAreKept() throws {
        let output = scratch.url.appendingPathComponent("out")
        let counter = scratch.file("count")
        // Run 2 links its trace path to /dev/zero, run 3 makes it a FIFO, run 4 makes its
        // own stderr file a FIFO and fails (launchprof reads a failed run's stderr).
        let script = try scratch.write(
            """
            #!/bin/sh
            n=$(cat \(counter) 2>/dev/null || echo 0); echo $((n+1)) > \(counter)
            case $n in
            1) ln -sf /dev/zero "$LAUNCHPROF_TRACE" ;;
            2) rm -f "$LAUNCHPROF_TRACE"; mkfifo "$LAUNCHPROF_TRACE" ;;
            3) err=$(readlink /proc/$$/fd/2); rm -f "$err"; mkfifo "$err"; exit 1 ;;
            esac
            exit 0
            """, to: "hostile.sh", permissions: 0o755)
        let result = try launchprof(
            [
                "measure", "--runs", "5", "--warmup", "0", "--timeout", "5", "--output", output.path, "--name",
                "hostile", "--", script,
            ])
        #expect(!result.timedOut, "launchprof hung")
        #expect(result.status == 2, "\(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("hostile.json").path)
        let runs = report.runs.filter { !$0.isWarmup }
        try #require(runs.count == 5)
        #expect(runs.map(\.status) == [.ok, .invalidTrace, .invalidTrace, .failedExit, .ok])
        #expect(
            runs[1].problem?.contains("trace.lptrace: cannot read trace: it is a symbolic link (not followed)") == true,
            "\(runs[1].problem ?? "")")
        #expect(
            runs[2].problem?.contains("cannot read trace: it is a FIFO, not a regular file") == true,
            "\(runs[2].problem ?? "")")
        #expect(runs[3].problem == "exited with code 1")
        #expect(report.profile.successfulRuns == 2)
    }

    // MARK: Reports

    @Test func aReportPathThatIsNoRegularFileIsOneLineAndExitTwo() throws {
        let fifo = makeFIFO("fifo.json")
        for path in ["/dev/zero", fifo, scratch.path] {
            expectOneLineError(
                try launchprof(["report", path, "--format", "terminal"]),
                [path, "cannot read report", "not a regular file"])
            expectOneLineError(try launchprof(["compare", path, path]), [path, "not a regular file"])
        }
        // A baseline that is a FIFO.
        let baselines = scratch.url.appendingPathComponent("Reports/baselines")
        try FileManager.default.createDirectory(at: baselines, withIntermediateDirectories: true)
        #expect(mkfifo(baselines.appendingPathComponent("main.json").path, 0o644) == 0)
        expectOneLineError(
            try launchprof(["compare", "--baseline", "main", "--runs", "3", "--", "true"]), ["main.json", "FIFO"])
    }

    // MARK: Output

    @Test func theProgramsOutputIsPrintedWithItsControlCharactersEscaped() throws {
        // Sets the terminal's title and clears the screen, on standard error, and fails.
        let script = try scratch.write(
            "#!/bin/sh\nprintf 'boom \\033]0;pwned\\007\\033[2J\\n' >&2\nexit 1\n", to: "loud.sh", permissions: 0o755)
        let output = scratch.url.appendingPathComponent("out")
        let result = try launchprof([
            "measure", "--runs", "2", "--warmup", "0", "--output", output.path, "--name", "loud", "--", script,
        ])
        #expect(result.status == 2)
        let escaped = #"boom \u{1B}]0;pwned\u{07}\u{1B}[2J"#
        #expect(result.stdout.contains(escaped), "\(result.stdout)")
        #expect(result.stderr.contains(escaped), "\(result.stderr)")
        for text in [result.stdout, result.stderr] {
            #expect(
                !text.unicodeScalars.contains { $0 != "\n" && ControlCharacters.isEscaped($0) },
                "\(text.debugDescription)")
        }
        // The report keeps the program's text as it was.
        let report = try JSONReport.read(from: output.appendingPathComponent("loud.json").path)
        #expect(report.runs.first?.problem?.contains("\u{1B}]0;pwned\u{07}") == true)
        // Rendered again, the same.
        let again = try launchprof([
            "report", output.appendingPathComponent("loud.json").path, "--format", "terminal", "--output", "-",
        ])
        #expect(again.stdout.contains(escaped))
        #expect(!again.stdout.unicodeScalars.contains { $0 != "\n" && ControlCharacters.isEscaped($0) })
    }

    @Test func aFailedWriteToStandardOutputIsAnError() throws {
        let output = scratch.url.appendingPathComponent("out")
        let measured = try launchprof(
            ["measure", "--runs", "2", "--output", output.path, "--name", "full", "--", "true"], stdout: "/dev/full")
        expectOneLineError(measured, ["cannot write to standard output", "no space left on device"])
        // The report files are still written.
        let path = output.appendingPathComponent("full.json").path
        #expect(try JSONReport.read(from: path).runs.count == 3)
        expectOneLineError(
            try launchprof(["report", path, "--format", "markdown", "--output", "-"], stdout: "/dev/full"),
            ["cannot write to standard output"])
        expectOneLineError(try launchprof(["--help"], stdout: "/dev/full"), ["cannot write to standard output"])
    }

    // MARK: Arguments and help

    @Test func aFormatListWithAnEmptyElementIsRefused() throws {
        for list in ["json,", ",json", "json,,html"] {
            expectOneLineError(try launchprof(["measure", "--format", list, "--", "true"]), ["--format"])
            expectOneLineError(try launchprof(["report", "x.json", "--format", list]), ["--format"])
        }
    }

    @Test func helpListsExactlyTheExitCodesTheCommandsUse() throws {
        func codes(_ arguments: [String]) throws -> Set<Int32> {
            let help = try launchprof(arguments).stdout
            let section = help.components(separatedBy: "EXIT CODES:").dropFirst().first ?? ""
            // The section runs to the next blank line: "0 passed, 1 …,\n   130 Ctrl-C (SIGINT), …".
            let text = section.components(separatedBy: "\n\n").first ?? ""
            return Set(
                text.split(whereSeparator: { $0 == "," || $0 == ":" }).compactMap { item in
                    item.split(whereSeparator: \.isWhitespace).first.flatMap { Int32($0) }
                })
        }
        let all = Set(ExitCode.all.map(\.rawValue))
        #expect(all == [0, 1, 2, 3, 129, 130, 143])
        #expect(try codes(["--help"]) == all)
        #expect(try codes(["measure", "--help"]) == [0, 1, 2, 129, 130, 143])
        #expect(try codes(["compare", "--help"]) == all)
        #expect(try codes(["calibrate", "--help"]) == [0, 2, 129, 130, 143])
        #expect(try codes(["report", "--help"]) == [0, 2])
        // Every command's codes are among the ones the overview lists.
        var union = Set<Int32>()
        for command in ["measure", "compare", "calibrate", "report"] {
            union.formUnion(try codes([command, "--help"]))
        }
        #expect(union == all)
    }
}
