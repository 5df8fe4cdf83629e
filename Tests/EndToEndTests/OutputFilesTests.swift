import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// Where `measure` and `compare` write: report names from the whole command line,
/// a runs folder that belongs to its report, `--output -`, and no write through a
/// link planted in the output folder.
@Suite("measure: the files it writes")
struct OutputFilesTests {
    let scratch = ScratchDirectory("lp-output")

    /// The output folder, `<scratch>/Reports`.
    var output: String { scratch.file("Reports") }

    /// `launchprof measure` (no warm-up unless `arguments` ask for one) of `command`.
    func measure(_ arguments: [String], command: [String], in directory: URL? = nil) throws -> Executables.Result {
        let warmup = arguments.contains("--warmup") ? [] : ["--warmup", "0"]
        // A generous timeout: a traced fixture needs seconds of CPU in a sanitized build, on a loaded machine more.
        let timeout = arguments.contains("--timeout") ? [] : ["--timeout", "600"]
        return try Executables.run(
            ["measure", "--budget-ms", "100000"] + warmup + timeout + arguments + ["--"] + command, in: directory)
    }

    func entries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func expectOneErrorLine(
        _ result: Executables.Result, mentions fragments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 2, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "expected one line, got: \(result.stderr)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(
                result.stderr.contains(fragment), "\(result.stderr) lacks \(fragment)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Names

    @Test func twoCommandsOfOneProgramWriteTwoReports() throws {
        let exit0 = ["/bin/sh", "-c", "exit 0"]
        let colon = ["/bin/sh", "-c", ": nothing"]
        #expect(try measure(["--runs", "1", "--quiet", "--output", output], command: exit0).status == 0)
        #expect(try measure(["--runs", "1", "--quiet", "--output", output], command: colon).status == 0)
        let first = try JSONReport.read(from: output + "/sh-c-exit-0.json")
        let second = try JSONReport.read(from: output + "/sh-c-nothing.json")
        #expect(first.configuration.command == exit0 && second.configuration.command == colon)
        #expect(entries(output + "/sh-c-exit-0.runs") == ["run-1"])
        #expect(entries(output + "/sh-c-nothing.runs") == ["run-1"])
    }

    @Test func aNameAnotherCommandHoldsGetsTheCommandsHash() throws {
        // Both reduce to `echo-b`: the second takes the name with its hash, every time.
        let first = ["/bin/echo", "a/b"]
        let second = ["/bin/echo", "c/b"]
        for command in [first, second, first, second] {
            #expect(try measure(["--runs", "1", "--quiet", "--output", output], command: command).status == 0)
        }
        let hashed = "echo-b-" + ReportFileName.hash(of: second)
        #expect(Set(entries(output).filter { $0.hasSuffix(".json") }) == ["echo-b.json", hashed + ".json"])
        #expect(try JSONReport.read(from: output + "/echo-b.json").configuration.command == first)
        #expect(try JSONReport.read(from: output + "/\(hashed).json").configuration.command == second)

        // A long command line is cut to 60 characters, its hash at the end.
        let long = ["/bin/echo"] + (1...30).map { "word\($0)" }
        #expect(try measure(["--runs", "1", "--quiet", "--output", output], command: long).status == 0)
        let cut = try #require(entries(output).first { $0.hasPrefix("echo-word1-") && $0.hasSuffix(".json") })
        let name = String(cut.dropLast(5))
        #expect(name.count <= 60 && name.hasSuffix("-" + ReportFileName.hash(of: long)), "\(name)")
        #expect(name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || "._-".contains($0)) })
    }

    // MARK: The runs folder

    @Test func aSecondMeasurementWithFewerRunsLeavesNoRunOfTheFirst() throws {
        let command = ["/bin/sh", "-c", "echo launched"]
        #expect(
            try measure(
                ["--runs", "4", "--warmup", "1", "--quiet", "--output", output, "--name", "app"], command: command
            ).status == 0)
        #expect(entries(output + "/app.runs") == ["run-1", "run-2", "run-3", "run-4", "warmup-1"])
        #expect(
            try measure(["--runs", "2", "--quiet", "--output", output, "--name", "app"], command: command).status == 0)
        #expect(entries(output + "/app.runs") == ["run-1", "run-2"])
        // Nothing temporary is left, and the report's paths are where its runs are.
        #expect(entries(output) == ["app.html", "app.json", "app.runs"])
        let report = try JSONReport.read(from: output + "/app.json")
        for run in report.runs {
            let path = try #require(run.stdoutPath)
            #expect(ScratchDirectory.read(path) == "launched\n", "\(path)")
        }
    }

    @Test func aReportWhoseEveryRunFailedSaysItReplacedAGoodOne() throws {
        let flag = scratch.file("fail")
        let command = ["/bin/sh", "-c", "[ -e \(flag) ] && exit 3; exit 0"]
        #expect(try measure(["--runs", "2", "--quiet", "--output", output], command: command).status == 0)
        _ = FileManager.default.createFile(atPath: flag, contents: nil)
        let failed = try measure(["--runs", "2", "--quiet", "--output", output], command: command)
        let name = ReportFileName.forCommand(command)
        expectOneErrorLine(failed, mentions: ["every run failed", "replaced", "\(name).json", "2 good run(s)"])
        #expect(try JSONReport.read(from: output + "/\(name).json").profile.successfulRuns == 0)
    }

    @Test func twoSessionsOfOneNameAtOnceDoNotMixTheirRuns() throws {
        func start(_ word: String) throws -> Process {
            try Executables.start([
                "measure", "--runs", "6", "--warmup", "0", "--quiet", "--output", output, "--name", "same",
                "--", "/bin/sh", "-c", "echo \(word); sleep 0.05",
            ])
        }
        let sessions = [try start("first"), try start("second")]
        for session in sessions { session.waitUntilExit() }
        #expect(sessions.allSatisfy { $0.terminationStatus == 0 })
        let report = try JSONReport.read(from: output + "/same.json")
        let word = try #require(
            report.configuration.command.last?.split(separator: ";").first?.split(separator: " ").last)
        let runs = entries(output + "/same.runs")
        #expect(runs == (1...6).map { "run-\($0)" })
        for run in runs {
            #expect(ScratchDirectory.read(output + "/same.runs/\(run)/stdout.txt") == "\(word)\n", "\(run)")
        }
        #expect(!entries(output).contains { $0.contains(".tmp-") }, "\(entries(output))")
    }

    @Test func aComparisonsRunsFolderIsReplacedWholeAndItCanGoToStandardOutput() throws {
        func compare(_ stages: String, _ extra: [String]) throws -> Executables.Result {
            try Executables.run(
                [
                    "compare", "--base", "/bin/sh -c 'exit 0'", "--head", "/bin/sh -c ': head'", "--ready", "exit",
                    "--warmup", "0", "--stages", stages, "--quiet",
                ] + extra, in: scratch.url)
        }
        #expect([0, 3].contains(try compare("10", ["--output", output, "--name", "cmp"]).status))
        #expect(entries(output + "/cmp.runs") == ["base", "head"])
        #expect(entries(output + "/cmp.runs/head").count == 10)
        #expect([0, 3].contains(try compare("8", ["--output", output, "--name", "cmp"]).status))
        #expect(entries(output + "/cmp.runs/base") == (1...8).map { "run-\($0)" }.sorted())
        #expect(entries(output + "/cmp.runs/head") == (1...8).map { "run-\($0)" }.sorted())
        #expect(!entries(output).contains { $0.contains(".tmp-") }, "\(entries(output))")

        let piped = try compare("8", ["--output", "-", "--format", "json"])
        #expect([0, 3].contains(piped.status), "\(piped.stderr)")
        try scratch.write(piped.stdout, to: "comparison.json")
        guard case .comparison(let report) = try JSONReport.readDocument(from: scratch.file("comparison.json")) else {
            Issue.record("not a comparison: \(piped.stdout.prefix(200))")
            return
        }
        let folder = try #require(report.head.runs.first?.stdoutPath?.components(separatedBy: "/head/").first)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(piped.stderr.contains("the runs are kept in \(folder)"), "\(piped.stderr)")
        #expect(entries(folder) == ["base", "head"])
    }

    // MARK: Links

    @Test func aLinkedRunsFolderIsAnErrorThatNamesItAndItsTargetIsUntouched() throws {
        let target = scratch.file("elsewhere")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try scratch.write("keep", to: "elsewhere/run-1")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: output + "/app.runs", withDestinationPath: target)
        let result = try measure(
            ["--runs", "1", "--quiet", "--output", output, "--name", "app"], command: ["/bin/true"])
        expectOneErrorLine(result, mentions: ["\(output)/app.runs", "symbolic link"])
        #expect(entries(target) == ["run-1"])
        #expect(ScratchDirectory.read(target + "/run-1") == "keep")
        #expect(entries(output) == ["app.runs"])
    }

    /// Issue 33, finding 7: a runs folder swapped for a link during a session is
    /// refused, and the report set kept points at no runs folder (not the old
    /// session's) and has no old HTML beside it: every file carries the new JSON's id.
    @Test func aRunsFolderSwappedForALinkLeavesASetThatPointsAtNoOldRuns() throws {
        let first = try measure(
            ["--runs", "1", "--quiet", "--output", output, "--name", "app", "--format", "json,html,markdown"],
            command: ["/bin/true"])
        #expect(first.status == 0, "\(first.stderr)")
        let target = scratch.file("elsewhere")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        let swap = "rm -rf '\(output)/app.runs' && ln -s '\(target)' '\(output)/app.runs'"
        let swapped = try measure(
            ["--runs", "1", "--quiet", "--output", output, "--name", "app", "--format", "json,markdown"],
            command: ["/bin/sh", "-c", swap])
        #expect(swapped.status == 2, "\(swapped.stderr)")
        #expect(swapped.stderr.contains("\(output)/app.runs"), "\(swapped.stderr)")
        let report = try JSONReport.read(from: output + "/app.json")
        #expect(report.runs.count == 1 && report.configuration.command.first == "/bin/sh")
        #expect(report.runs.allSatisfy { $0.stdoutPath == nil && $0.stderrPath == nil && $0.tracePath == nil })
        let id = try #require(report.reportID)
        #expect(!FileManager.default.fileExists(atPath: output + "/app.html"), "the old set's HTML is gone")
        #expect(ScratchDirectory.read(output + "/app.md").contains(id), "the Markdown is the new set's")
        #expect(entries(target).isEmpty, "nothing written through the link")
    }

    @Test func aLinkedBaselinesFolderIsRefusedAndNothingIsWrittenThroughIt() throws {
        let target = scratch.file("elsewhere")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try scratch.write("keep", to: "elsewhere/main.json")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: output + "/baselines", withDestinationPath: target)
        let refused = try measure(
            ["--runs", "1", "--quiet", "--output", output, "--name", "app", "--save-baseline", "main"],
            command: ["/bin/true"])
        expectOneErrorLine(refused, mentions: ["\(output)/baselines", "symbolic link"])
        #expect(entries(output) == ["baselines"], "nothing measured: \(entries(output))")

        // A link the measured program plants while it runs: the report is kept, the baseline is not written through it.
        try FileManager.default.removeItem(atPath: output + "/baselines")
        let planted = try measure(
            ["--runs", "1", "--quiet", "--output", output, "--name", "app", "--save-baseline", "main"],
            command: ["/bin/sh", "-c", "ln -s '\(target)' '\(output)/baselines'"])
        expectOneErrorLine(planted, mentions: ["\(output)/baselines", "symbolic link"])
        #expect(try JSONReport.read(from: output + "/app.json").runs.count == 1)
        #expect(entries(target) == ["main.json"])
        #expect(ScratchDirectory.read(target + "/main.json") == "keep")
    }

    @Test func linksPlantedInTheOldRunsAreNeverWrittenThrough() throws {
        let command = ["/bin/sh", "-c", "echo output"]
        #expect(
            try measure(["--runs", "2", "--quiet", "--output", output, "--name", "app"], command: command).status == 0)
        let target = scratch.file("elsewhere")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try scratch.write("keep", to: "elsewhere/stdout.txt")
        // A linked run folder, and a link in place of a run's stdout.txt.
        try FileManager.default.removeItem(atPath: output + "/app.runs/run-1")
        try FileManager.default.createSymbolicLink(atPath: output + "/app.runs/run-1", withDestinationPath: target)
        try FileManager.default.removeItem(atPath: output + "/app.runs/run-2/stdout.txt")
        try FileManager.default.createSymbolicLink(
            atPath: output + "/app.runs/run-2/stdout.txt", withDestinationPath: target + "/stdout.txt")
        let result = try measure(["--runs", "2", "--quiet", "--output", output, "--name", "app"], command: command)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(entries(target) == ["stdout.txt"])
        #expect(ScratchDirectory.read(target + "/stdout.txt") == "keep")
        for run in ["run-1", "run-2"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: output + "/app.runs/\(run)/stdout.txt")
            #expect(attributes[.type] as? FileAttributeType == .typeRegular)
            #expect(ScratchDirectory.read(output + "/app.runs/\(run)/stdout.txt") == "output\n")
        }
    }

    // MARK: Staging folders

    /// The staging runs folders of `name` in the output folder (`<name>.runs.tmp-…`).
    func stagingFolders(_ name: String) -> [String] {
        entries(output).filter { $0.hasPrefix(name + ".runs.tmp-") }
    }

    @Test func aKilledSessionsStagingFolderIsRemovedByTheNextAndALiveSessionsIsNot() throws {
        let started = URL(fileURLWithPath: scratch.file("started"))
        let go = scratch.file("go")
        func start(_ script: String) throws -> Process {
            try Executables.start([
                "measure", "--runs", "1", "--warmup", "0", "--timeout", "600", "--budget-ms", "100000",
                "--quiet", "--output", output, "--name", "left", "--", "/bin/sh", "-c", script,
            ])
        }
        // A session killed in the middle of its launch leaves its staging folder behind.
        let killed = try start("touch '\(started.path)'; exec sleep 300")
        try #require(Executables.waitUntilExists(started), "the launch never started")
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        #expect(stagingFolders("left") == ["left.runs.tmp-\(killed.processIdentifier)"])

        // The next session of that name removes it; its own is locked while it lives.
        try FileManager.default.removeItem(at: started)
        let live = try start("touch '\(started.path)'; while [ ! -e '\(go)' ]; do sleep 0.05; done")
        defer { if live.isRunning { kill(live.processIdentifier, SIGKILL) } }
        try #require(Executables.waitUntilExists(started), "the launch never started")
        let liveFolders = stagingFolders("left")
        #expect(
            liveFolders.count == 1
                && liveFolders.allSatisfy { $0.hasPrefix("left.runs.tmp-\(live.processIdentifier)") },
            "\(liveFolders), live session \(live.processIdentifier)")

        // Another session of that name meanwhile leaves the live one's folder alone.
        let other = try measure(
            ["--runs", "1", "--quiet", "--output", output, "--name", "left"], command: ["/bin/true"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(stagingFolders("left") == liveFolders)
        FileManager.default.createFile(atPath: go, contents: nil)
        live.waitUntilExit()
        #expect(live.terminationStatus == 0)
        #expect(stagingFolders("left").isEmpty, "\(entries(output))")
        #expect(entries(output + "/left.runs") == ["run-1"])
    }

    @Test func aStagingFolderTheProgramMovedAndReplacedWithALinkIsNotCommitted() throws {
        #expect(
            try measure(
                ["--runs", "1", "--quiet", "--output", output, "--name", "app"], command: ["/bin/sh", "-c", "echo old"]
            ).status == 0)
        // The program learns its staging folder from LAUNCHPROF_TRACE, moves it away and leaves a link in its place.
        let moved = scratch.file("moved")
        let swap =
            "runs=$(dirname \"$(dirname \"$LAUNCHPROF_TRACE\")\"); mv \"$runs\" '\(moved)' && ln -s '\(moved)' \"$runs\""
        let result = try measure(
            ["--runs", "1", "--quiet", "--output", output, "--name", "app"], command: ["/bin/sh", "-c", swap])
        expectOneErrorLine(result, mentions: ["\(output)/app.runs.tmp-", "no longer the runs folder launchprof made"])
        #expect(try JSONReport.read(from: output + "/app.json").runs.count == 1, "the report is kept")
        let attributes = try FileManager.default.attributesOfItem(atPath: output + "/app.runs")
        #expect(attributes[.type] as? FileAttributeType == .typeDirectory, "app.runs was replaced by a link")
        #expect(ScratchDirectory.read(output + "/app.runs/run-1/stdout.txt") == "old\n")
        #expect(entries(moved) == ["run-1"], "the real runs stay where the program put them")

        // Later sessions of that name are not blocked by what it left.
        let again = try measure(
            ["--runs", "1", "--quiet", "--output", output, "--name", "app"], command: ["/bin/sh", "-c", "echo new"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(ScratchDirectory.read(output + "/app.runs/run-1/stdout.txt") == "new\n")
        #expect(stagingFolders("app").isEmpty, "\(entries(output))")
        #expect(entries(moved) == ["run-1"])
    }

    @Test func linesOnStandardErrorNameTheRunsFolderWhereItEndsUp() throws {
        let result = try measure(
            ["--runs", "1", "--ready", "exit", "--output", output, "--name", "bad"],
            command: ["/bin/sh", "-c", "printf garbage > \"$LAUNCHPROF_TRACE\""])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("\(output)/bad.runs/run-1/trace.lptrace"), "\(result.stderr)")
        #expect(!result.stderr.contains(".tmp-"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: output + "/bad.runs/run-1/trace.lptrace"))
    }

    @Test func aReportThatCouldNotBeWrittenPointsAtNoFileThatWasRemoved() throws {
        // The program makes the JSON report's path a directory: the report cannot be written, so its runs are removed.
        let result = try measure(
            ["--runs", "1", "--output", output, "--name", "lost"],
            command: ["/bin/sh", "-c", "mkdir '\(output)/lost.json'; echo oops >&2; exit 1"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("cannot write report"), "\(result.stderr)")
        let named = (result.stdout + result.stderr).split(separator: "\n").compactMap { line -> String? in
            guard let start = line.firstIndex(of: "/"), let end = line.range(of: "stderr.txt")?.upperBound, start < end
            else { return nil }
            return String(line[start..<end])
        }
        for path in named {
            #expect(FileManager.default.fileExists(atPath: path), "the output names \(path), which does not exist")
        }
        #expect(stagingFolders("lost").isEmpty, "\(entries(output))")
    }

    @Test func aRunsKeptOutputIsBoundedToItsLastSixteenMebibytes() throws {
        let result = try measure(
            ["--runs", "1", "--quiet", "--output", output, "--name", "loud"],
            command: ["/bin/sh", "-c", "yes | head -c 20000000; echo the-end"])
        #expect(result.status == 0, "\(result.stderr)")
        let path = output + "/loud.runs/run-1/stdout.txt"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size <= 16 << 20 + 200, "stdout.txt holds \(size) bytes")
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        let head = String(decoding: try handle.read(upToCount: 200) ?? Data(), as: UTF8.self)
        #expect(head.hasPrefix("[launchprof: the first "), "\(head)")
        try handle.seek(toOffset: UInt64(max(0, size - 10)))
        #expect(String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self).hasSuffix("y\nthe-end\n"))
    }

    // MARK: Standard output

    @Test func outputDashWritesOneFormatToStandardOutputAndKeepsTheRunsInATemporaryFolder() throws {
        let result = try measure(
            ["--runs", "2", "--format", "json", "--output", "-"], command: ["/bin/sh", "-c", "echo hi"],
            in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        try scratch.write(result.stdout, to: "report.json")
        let report = try JSONReport.read(from: scratch.file("report.json"))
        #expect(report.runs.count == 2)
        // Where the runs are is said on standard error, and the report's paths are there.
        let line = try #require(result.stderr.split(separator: "\n").first { $0.contains("runs are kept in") })
        let folder = String(line[line.range(of: "runs are kept in ")!.upperBound...])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(entries(folder) == ["run-1", "run-2"])
        #expect(report.runs.allSatisfy { $0.stdoutPath?.hasPrefix(folder + "/") == true })
        #expect(ScratchDirectory.read(folder + "/run-1/stdout.txt") == "hi\n")
        #expect(entries(scratch.path) == ["report.json"], "no folder named '-', no Reports")
    }

    @Test func outputDashTakesOneFileFormatAndAnEmptyOutputIsRefused() throws {
        for (arguments, fragment) in [
            (["--output", "-"], "not 3"),
            (["--output", "-", "--format", "json,markdown"], "not 2"),
            (["--output", "-", "--format", "terminal"], "'terminal'"),
            (["--output", ""], "--output"),
        ] {
            let result = try measure(["--runs", "1"] + arguments, command: ["/bin/true"], in: scratch.url)
            expectOneErrorLine(result, mentions: [fragment])
            #expect(result.stdout.isEmpty)
        }
        let compare = try Executables.run(
            ["compare", "--base", "/bin/true", "--head", "/bin/true", "--output", "-"], in: scratch.url)
        expectOneErrorLine(compare, mentions: ["--output -"])
        let calibrate = try Executables.run(["calibrate", "--output", "-", "--", "/bin/true"], in: scratch.url)
        expectOneErrorLine(calibrate, mentions: ["--output", "no report"])
        #expect(entries(scratch.path).isEmpty, "\(entries(scratch.path))")
    }

    // MARK: The trace's path

    @Test func aProgramThatChangesDirectoryStillWritesItsTrace() throws {
        // A relative output folder; the program leaves it before it writes its trace.
        let result = try measure(
            ["--runs", "2", "--quiet", "--output", "Reports", "--name", "moved"],
            command: ["/bin/sh", "-c", "cd / && exec \(Executables.fixture) tracer-only"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONReport.read(from: output + "/moved.json")
        #expect(report.profile.isInstrumented)
        #expect(
            report.runs.allSatisfy {
                $0.timeline != nil && $0.tracePath == "Reports/moved.runs/run-\($0.index)/trace.lptrace"
            })
    }

    @Test func runsThatWriteNoTraceWhenOthersDidAreWarnedAbout() throws {
        let counter = scratch.file("count")
        let script =
            "n=$(cat \(counter) 2>/dev/null || echo 0); echo $((n+1)) > \(counter); "
            + "[ $n = 0 ] && exec \(Executables.fixture) tracer-only; exit 0"
        let result = try measure(
            ["--runs", "3", "--output", output, "--name", "lost"], command: ["/bin/sh", "-c", script])
        let report = try JSONReport.read(from: output + "/lost.json")
        let warning = try #require(report.profile.warnings?.first { $0.contains("wrote no trace") })
        #expect(warning.contains("2 run(s) (run 2, run 3)") && warning.contains("run 1 did"), "\(warning)")
        #expect(result.stdout.contains("wrote no trace"), "\(result.stdout)")
    }
}
