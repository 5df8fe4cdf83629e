import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// What launchprof counts is what it measured: a program cannot grow it without
/// bound through the ready pipe, replay another run's trace, and a report given
/// twice is not counted twice.
@Suite("integrity")
struct IntegrityTests {
    let scratch = ScratchDirectory("lp-integrity")

    /// Runs `arguments` (launchprof's) under python3, which reports launchprof's peak
    /// resident memory (KiB, `getrusage(RUSAGE_CHILDREN)` of its own child).
    func launchprofPeakMemory(_ arguments: [String]) throws -> (status: Int32, peakKiB: Int, stderr: String) {
        let script = """
            import resource, subprocess, sys
            done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
            print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let result = try Executables.run(
            ["python3", "-c", script, Executables.launchprof] + arguments, executable: "/usr/bin/env", in: scratch.url,
            timeoutSeconds: 300)
        let fields = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(fields.count == 2, "python3 said: \(result.stdout) \(result.stderr)")
        return (Int32(fields[0]), fields[1], result.stderr)
    }

    // MARK: The ready pipe

    @Test func anEndlessLineOnTheReadyPipeIsCappedAndDrained() throws {
        // 300 MB on fd 3 with no newline, then a clean exit.
        let script = try scratch.write(
            """
            #!/bin/sh
            head -c 300000000 /dev/zero >&3
            exit 0
            """, to: "endless.sh", permissions: 0o755)
        let run = try launchprofPeakMemory(
            [
                "measure", "--runs", "1", "--warmup", "0", "--ready", "exit", "--timeout", "120", "--budget-ms",
                "100000",
                "--output", scratch.file("out"), "--name", "endless", "--", script,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        // Under 200 MB: the line is kept to 64 KiB, not to 300 MB.
        #expect(run.peakKiB < 200_000, "launchprof peaked at \(run.peakKiB) KiB")
    }

    // MARK: Secrets

    /// Every byte of every file under `directory`, with its path.
    func everyFile(under directory: String) -> [(path: String, bytes: Data)] {
        let enumerator = FileManager.default.enumerator(atPath: directory)
        var files: [(String, Data)] = []
        while let relative = enumerator?.nextObject() as? String {
            let path = directory + "/" + relative
            if let data = FileManager.default.contents(atPath: path) { files.append((path, data)) }
        }
        return files
    }

    @Test func anOTLPHeaderValueIsWrittenNowhere() throws {
        let output = scratch.file("out")
        let result = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--ready", "exit", "--budget-ms", "100000", "--output",
                output, "--name", "secret",
                "--format", "json,html,markdown,chrome-trace,junit,hyperfine", "--save-baseline", "main",
                "--otlp-endpoint", "http://127.0.0.1:9", "--otlp-timeout", "1", "--otlp-best-effort",
                "--otlp-header", "authorization=Bearer SECRET-TOKEN", "--otlp-header=x-api-key=SECRET-KEY",
                "--", "/bin/sh", "-c", "exit 0",
            ],
            environment: ["OTEL_EXPORTER_OTLP_HEADERS": "x-other=SECRET-ENV"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        for secret in ["SECRET-TOKEN", "SECRET-KEY", "SECRET-ENV"] {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
        }
        let files = everyFile(under: output)
        #expect(files.contains { $0.path.hasSuffix("baselines/main.json") })
        #expect(files.count >= 7)
        for file in files {
            #expect(file.bytes.range(of: Data("SECRET".utf8)) == nil, "\(file.path) holds the secret")
        }
        let report = try JSONReport.read(from: output + "/secret.json")
        #expect(report.configuration.commandLine.contains("authorization=<redacted>"))
        #expect(report.configuration.commandLine.contains("--otlp-header=x-api-key=<redacted>"))
    }

    // MARK: A report counted twice

    /// Measures `/bin/true`-like runs into `<name>.json` under the scratch directory; returns its path.
    func measuredReport(_ name: String, runs: Int = 6) throws -> String {
        let result = try Executables.run(
            [
                "measure", "--runs", String(runs), "--warmup", "1", "--ready", "exit", "--budget-ms", "100000",
                "--output", scratch.path, "--name", name,
                "--format", "json", "--", "/bin/sh", "-c", "exit 0",
            ], in: scratch.url)
        try #require(result.status == 0, "\(result.stderr)")
        return scratch.file(name + ".json")
    }

    /// Exit 2 and one line on stderr naming both files.
    func expectRefused(
        _ arguments: [String], naming first: String, _ second: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try Executables.run(arguments, in: scratch.url)
        #expect(result.status == 2, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.contains("'\(first)' and '\(second)' hold the same"), "\(result.stderr)",
            sourceLocation: sourceLocation)
    }

    @Test func oneReportGivenTwiceIsRefusedNamingBothFiles() throws {
        let a = try measuredReport("a")
        let b = try measuredReport("b")
        // The same file twice, and a copy of it under another name.
        let copy = scratch.file("copy-of-a.json")
        try FileManager.default.copyItem(atPath: a, toPath: copy)
        try expectRefused(["merge", a, a, "-o", scratch.file("m.json")], naming: a, a)
        try expectRefused(["merge", a, b, copy, "-o", scratch.file("m.json")], naming: a, copy)
        try expectRefused(
            ["compare", "--base-report", a, "--base-report", a, "--head-report", b, "--head-report", b], naming: a, a)
        try expectRefused(["compare", "--base-report", a, "--head-report", copy], naming: a, copy)
        try expectRefused(["compare", a, a], naming: a, a)
        // A pooled report holds its runs: pooling it again with one of them is counting twice.
        let merged = try Executables.run(["merge", a, b, "-o", scratch.file("ab.json")], in: scratch.url)
        #expect(merged.status == 0, "\(merged.stderr)")
        try expectRefused(
            ["merge", scratch.file("ab.json"), b, "-o", scratch.file("m.json")], naming: scratch.file("ab.json"), b)
        // Different runs pool as before.
        let fleet = try Executables.run(["compare", "--base-report", a, "--head-report", b], in: scratch.url)
        #expect([0, 1, 3].contains(fleet.status), "\(fleet.stderr)")
    }

    @Test func aReportFromBeforeRunsWereStampedIsToldApartByItsSamples() throws {
        let a = try measuredReport("old")
        // Remove every run's wall-clock stamp, as reports written before it were.
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: a))) as? [String: Any])
        var runs = try #require(json["runs"] as? [[String: Any]])
        #expect(runs.contains { $0["wallClock"] != nil })
        for index in runs.indices { runs[index]["wallClock"] = nil }
        json["runs"] = runs
        let old = scratch.file("unstamped.json")
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: old))
        try expectRefused(["merge", old, old, "-o", scratch.file("m.json")], naming: old, old)
        // Issue 33, finding 4: the stripped copy beside the original it came from is the same runs.
        try expectRefused(["merge", a, old, "-o", scratch.file("m.json")], naming: a, old)
        // Its own runs are not taken for one another.
        let alone = try Executables.run(["merge", old, "-o", scratch.file("m.json")], in: scratch.url)
        #expect(alone.status == 0, "\(alone.stderr)")
    }

    /// Issue 33, finding 3: `merge` pooled `/bin/true` with `sleep 0.05`, the first
    /// report's budget deciding; now refused unless `--pool` says to.
    @Test func mergeRefusesReportsOfDifferentProgramsUnlessToldToPool() throws {
        let a = try measuredReport("true-a", runs: 3)
        let measured = try Executables.run(
            [
                "measure", "--runs", "3", "--warmup", "0", "--ready", "exit", "--budget-ms", "100000", "--output",
                scratch.path, "--name", "sleepy", "--format", "json", "--", "/bin/sleep", "0.05",
            ], in: scratch.url)
        try #require(measured.status == 0, "\(measured.stderr)")
        let b = scratch.file("sleepy.json")
        let refused = try Executables.run(["merge", a, b, "-o", scratch.file("m.json")], in: scratch.url)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("different programs") && refused.stderr.contains("--pool"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("m.json")))
        // A fleet comparison pools each side the same way: two programs on one side are refused, not
        // judged by the first one's budget.
        let head = try measuredReport("true-head", runs: 3)
        let compared = try Executables.run(
            ["compare", "--base-report", a, "--base-report", b, "--head-report", head, "--output", scratch.path],
            in: scratch.url)
        #expect(compared.status == 2, "\(compared.stderr)")
        #expect(compared.stderr.contains("different programs"), "\(compared.stderr)")
        let pooled = try Executables.run(["merge", a, b, "--pool", "-o", scratch.file("m.json")], in: scratch.url)
        #expect(pooled.status == 0, "\(pooled.stderr)")
        #expect(try JSONReport.read(from: scratch.file("m.json")).profile.runCount == 6)
    }

    /// Issue 33, finding 1: `report x.json --format json` rewrote a report without the
    /// fields this version does not know.
    @Test func rewritingAReportKeepsTheFieldsThisVersionDoesNotKnow() throws {
        let path = try measuredReport("future", runs: 2)
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        json["fromALaterVersion"] = ["kept": true]
        var runs = try #require(json["runs"] as? [[String: Any]])
        runs[0]["laterRunField"] = "x"
        json["runs"] = runs
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        let result = try Executables.run(["report", path, "--format", "json,markdown"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let back = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect((back["fromALaterVersion"] as? [String: Any])?["kept"] as? Bool == true)
        #expect((back["runs"] as? [[String: Any]])?.first?["laterRunField"] as? String == "x")
        let id = try #require(back["reportID"] as? String)
        #expect(ScratchDirectory.read(scratch.file("future.md")).contains(id), "the Markdown carries the JSON's id")
    }

    // MARK: A trace that lies

    @Test func aTraceThatDisagreesWithLaunchprofsClockIsAnInvalidRunNeverCounted() throws {
        let counter = scratch.file("count")
        let stash = scratch.file("stash.lptrace")
        let fixture = Executables.fixture
        // Run 1 is honest (its trace is kept aside); run 2 forges a trace whose first
        // frame comes 5 s after it announced it, though it exits at once; run 3 forges one whose
        // first frame comes 300 ms after it announced it, then sleeps 1 s (both are so
        // however late the program starts: they are placed after the announcement, not the spawn);
        // run 4 sleeps 1 s, announces the first frame and replays run 1's trace. (Run 1's tracer writes
        // its trace at exit, not at its first frame, so that the script lives on to keep it.)
        let script = try scratch.write(
            """
            #!/bin/sh
            n=$(cat '\(counter)' 2>/dev/null || echo 0); echo $((n+1)) > '\(counter)'
            case $n in
            0) LAUNCHPROF_FLUSH_AT= '\(fixture)' tracer-only > /dev/null; cp "$LAUNCHPROF_TRACE" '\(stash)' ;;
            1) exec '\(fixture)' forged-trace 5000 ;;
            2) exec '\(fixture)' forged-trace 300 1000 ;;
            3) sleep 1; echo firstFrame >&3; cp '\(stash)' "$LAUNCHPROF_TRACE" ;;
            esac
            exit 0
            """, to: "liar.sh", permissions: 0o755)
        let output = scratch.file("out")
        let result = try Executables.run(
            [
                "measure", "--runs", "4", "--warmup", "0", "--timeout", "20", "--output", output, "--name", "liar",
                "--format", "json",
                "--", script,
            ], in: scratch.url)
        #expect(!result.timedOut)
        let report = try JSONReport.read(from: output + "/liar.json")
        let runs = report.runs.filter { !$0.isWarmup }
        try #require(runs.count == 4, "\(result.stderr)")
        #expect(
            runs.map(\.status) == [.ok, .invalidTrace, .invalidTrace, .invalidTrace], "\(runs.map { $0.problem ?? "" })"
        )
        #expect(
            runs[1].problem?.contains("the trace's firstFrame at ") == true
                && runs[1].problem?.contains("ms after the spawn lies outside the launch") == true,
            "\(runs[1].problem ?? "")")
        #expect(runs[2].problem?.contains("comes after the program announced it") == true, "\(runs[2].problem ?? "")")
        #expect(
            runs[3].problem?.contains("the trace is not this launch's: its spawn stamp") == true,
            "\(runs[3].problem ?? "")")
        // Only the honest run is counted, with the trace's own clock.
        #expect(report.profile.successfulRuns == 1)
        #expect(runs[0].timeline != nil && runs[1...].allSatisfy { $0.timeline == nil })
    }

    /// Issue 33, finding 6: a program that waits 1 s, then announces a first frame at
    /// spawn + 5 ms with a trace that agrees, was reported at 5 ms (and `compare` called it
    /// a 99.6 % improvement), though its word reached launchprof after 1 s. The trace is
    /// now invalid: a milestone is announced as it is marked, so it cannot be much earlier
    /// than its word's arrival (``TraceCheck/announcementLateness(arrival:spawn:)``).
    @Test func aFirstFrameBackDatedBeforeItsAnnouncementArrivedIsAnInvalidTrace() throws {
        let output = scratch.file("out")
        let result = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--timeout", "20", "--output", output, "--name", "late",
                "--format", "json", "--", Executables.fixture, "backdated-trace", "1000", "5",
            ], in: scratch.url)
        #expect(!result.timedOut)
        let report = try JSONReport.read(from: output + "/late.json")
        let run = try #require(report.runs.first { !$0.isWarmup }, "\(result.stderr)")
        #expect(run.status == .invalidTrace, "\(run.problem ?? "")")
        #expect(
            run.problem?.contains("the trace's firstFrame at 5") == true
                && run.problem?.contains("is earlier than its announcement arrived") == true,
            "\(run.problem ?? "")")
        #expect(report.profile.successfulRuns == 0 && run.timeline == nil)
    }

    // MARK: Redaction

    @Test func redactedReportsHoldNoHomeWorkingDirectoryUserOrHostName() throws {
        // A fake home, user and working directory; a host name of our own when a UTS
        // namespace can be made (as root), checked only then.
        let home = scratch.file("homes/zqfakeuser")
        let work = scratch.file("zqworkdir")
        let output = home + "/out"
        let program = home + "/bin/prog.sh"
        for directory in [home + "/bin", work] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let counter = scratch.file("count")
        try scratch.write(
            """
            #!/bin/sh
            n=$(cat '\(counter)' 2>/dev/null || echo 0); echo $((n+1)) > '\(counter)'
            if [ "$n" = 1 ]; then echo "cannot open $HOME/private/secret.db (user $USER on $(hostname), in $PWD)" >&2; exit 1; fi
            exit 0
            """, to: "homes/zqfakeuser/bin/prog.sh", permissions: 0o755)
        let server = try LoopbackHTTPServer(replies: [.status(200, body: "{}")])
        defer { server.stop() }
        let ownHost = (try? Executables.run(["-u", "/bin/true"], executable: "/usr/bin/unshare"))?.status == 0
        let measure = [
            "measure", "--runs", "3", "--warmup", "0", "--ready", "exit", "--budget-ms", "100000", "--redact-paths",
            "--output", output, "--name", "private", "--format",
            "terminal,json,html,markdown,chrome-trace,junit,hyperfine",
            "--otlp-endpoint", "http://127.0.0.1:\(server.port)", "--otlp-timeout", "5", "--", program,
        ]
        let quoted = ([Executables.launchprof] + measure).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let shell = (ownHost ? "hostname zqfakehost && " : "") + "exec " + quoted.joined(separator: " ")
        let result = try Executables.run(
            ownHost ? ["-u", "/bin/sh", "-c", shell] : ["-c", shell],
            executable: ownHost ? "/usr/bin/unshare" : "/bin/sh",
            environment: ["HOME": home, "USER": "zqfakeuser", "LOGNAME": "zqfakeuser"], in: URL(fileURLWithPath: work))
        #expect(!result.timedOut)
        // The failed run's stderr did name them all.
        let stderrFile = output + "/private.runs/run-2/stderr.txt"
        let said = ScratchDirectory.read(stderrFile)
        #expect(
            said.contains(home + "/private/secret.db") && said.contains("zqfakeuser") && said.contains(work), "\(said)")
        if ownHost { #expect(said.contains("zqfakehost")) }

        var written: [(name: String, bytes: Data)] = everyFile(under: output)
            .filter { !$0.path.contains("/private.runs/") }.map { ($0.path, $0.bytes) }
        #expect(written.count == 6, "\(written.map(\.name))")
        written += server.requests.map { ("OTLP request", $0.body) }
        #expect(server.requests.count == 1)
        // The terminal format, but for the line saying where the files went.
        written.append(
            (
                "stdout",
                Data(
                    result.stdout.split(separator: "\n").filter { !$0.hasPrefix("report:") }.joined(separator: "\n")
                        .utf8)
            ))
        var secrets = ["zqfakeuser", "zqworkdir", home, work]
        if ownHost { secrets.append("zqfakehost") }
        for file in written {
            for secret in secrets {
                #expect(file.bytes.range(of: Data(secret.utf8)) == nil, "\(file.name) holds \(secret)")
            }
        }
        // What was kept is still useful: the failed run's line and its files, without the paths.
        let report = try JSONReport.read(from: output + "/private.json")
        let failed = try #require(report.runs.first { $0.status == .failedExit })
        #expect(failed.problem?.contains("cannot open secret.db") == true, "\(failed.problem ?? "")")
        #expect(failed.stderrPath == "private.runs/run-2/stderr.txt")
        #expect(report.configuration.command == ["prog.sh"])
    }
}
