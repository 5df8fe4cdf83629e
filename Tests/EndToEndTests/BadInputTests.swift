import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// Bad input: one clear line, exit 2, and nothing measured is lost.
@Suite("measure: bad input")
struct BadInputTests {
    func expectUsageError(_ arguments: [String], mentions fragments: [String]) throws {
        let result = try Executables.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "expected one line, got: \(result.stderr)")
        for fragment in fragments { #expect(result.stderr.contains(fragment), "\(result.stderr) lacks \(fragment)") }
        #expect(result.stdout.isEmpty)
    }

    @Test func argumentsAreCheckedBeforeAnyLaunch() throws {
        try expectUsageError(["measure", "--runs", "0"], mentions: ["--runs", "'0'"])
        try expectUsageError(["measure", "--run", "3"], mentions: ["'--run'", "did you mean '--runs'"])
        try expectUsageError(["measure", "--ready", "sometimes"], mentions: ["sometimes"])
        try expectUsageError(["measure", "--ready", "frist-frame"], mentions: ["did you mean 'first-frame'"])
        try expectUsageError(["measure", "--ready", "port:99999"], mentions: ["port:99999"])
        try expectUsageError(["measure", "--mode", "lukewarm"], mentions: ["lukewarm"])
        try expectUsageError(["measure", "--format", "pdf"], mentions: ["pdf"])
        try expectUsageError(["measure", "--launch-option", "reason=teleport"], mentions: ["reason", "teleport"])
        try expectUsageError(["measure", "--", "/no/such/program"], mentions: ["/no/such/program"])
        let notExecutable = Executables.temporaryDirectory().appendingPathComponent("data.txt")
        try Data("not a program\n".utf8).write(to: notExecutable)
        try expectUsageError(["measure", "--", notExecutable.path], mentions: [notExecutable.path, "not executable"])
        try expectUsageError(
            ["measure", "--output", "/proc/launchprof-cannot-write"], mentions: ["/proc/launchprof-cannot-write"])
        try expectUsageError(["mesure"], mentions: ["did you mean 'measure'"])
        // calibrate advises for compare's default stages from --runs (r, 2r, 3r), whose first look tests at α/27.
        try expectUsageError(
            ["calibrate", "--runs", "6", "--", "/bin/true"], mentions: ["--runs 6 is too few", "fewer than 7"])
        try expectUsageError(["measure", "--format", ""], mentions: ["--format"])
        try expectUsageError(["measure", "--format", ","], mentions: ["--format"])
        try expectUsageError(["measure", "--name", ""], mentions: ["--name"])
        try expectUsageError(["measure", "--name", ".."], mentions: ["--name"])
        try expectUsageError(
            ["measure", "--launch-option", "url=a\nb", "--launch-option", "reason=teleport"], mentions: ["teleport"])
        try expectUsageError(["measure", "--launch-option", "payload.=x"], mentions: ["payload."])
        try expectUsageError(
            ["measure", "--launch-option", "reason=url", "--launch-option", "reason=url"], mentions: ["twice"])
    }

    /// A harness setting in the environment that every launch inherits, with a value the
    /// harness refuses, stops `measure` before its first launch: the last report stays.
    @Test func aBadHarnessSettingInTheEnvironmentStopsBeforeAnyLaunch() throws {
        let output = Executables.temporaryDirectory()
        let measure = [
            "measure", "--runs", "2", "--warmup", "0", "--output", output.path, "--name", "kept", "--", "/bin/true",
        ]
        let first = try Executables.run(measure)
        #expect(first.status == 0, "\(first.stderr)")
        let report = output.appendingPathComponent("kept.json")
        let before = try Data(contentsOf: report)
        for (name, value) in [
            ("LAUNCHPROF_SAMPLER", "bogus"), ("LAUNCHPROF_GRACE_MS", "soon\nlater"),
            ("LAUNCHPROF_LAUNCH_OPTIONS", #"{"reason": "teleport"}"#),
        ] {
            let result = try Executables.run(measure, environment: [name: value])
            #expect(result.status == 2, "\(name): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(name) && result.stderr.contains("environment"), "\(result.stderr)")
            #expect(try Data(contentsOf: report) == before, "\(name) replaced the report")
        }
        // --launch-option replaces the inherited options, so theirs are not looked at.
        let given = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--launch-option", "reason=userTap", "--output", output.path,
                "--name", "given", "--", "/bin/true",
            ], environment: ["LAUNCHPROF_LAUNCH_OPTIONS": "not json"])
        #expect(given.status == 0, "\(given.stderr)")
    }

    @Test func badBudgetFileNamesTheKeyAndValue() throws {
        let directory = Executables.temporaryDirectory()
        let file = directory.appendingPathComponent("launchprof.json")
        try Data(#"{"timeToFirstFrameMs": "soon"}"#.utf8).write(to: file)
        try expectUsageError(["measure", "--budget", file.path], mentions: [file.path, "timeToFirstFrameMs", "soon"])
    }

    @Test func crashingRunsAreRecordedAndTheOthersKept() throws {
        let output = Executables.temporaryDirectory()
        let counter = output.appendingPathComponent("count")
        // Every other launch crashes with SIGSEGV.
        let script =
            "n=$(cat \(counter.path) 2>/dev/null || echo 0); echo $((n+1)) > \(counter.path); [ $((n % 2)) = 1 ] && kill -SEGV $$; exit 0"
        let result = try Executables.run([
            "measure", "--runs", "4", "--warmup", "0", "--output", output.path, "--name", "flaky", "--", "/bin/sh",
            "-c", script,
        ])
        let report = try JSONReport.read(from: output.appendingPathComponent("flaky.json").path)
        let runs = report.runs.filter { !$0.isWarmup }
        #expect(runs.count == 4)
        #expect(runs.filter { $0.status == .crashed }.count == 2)
        #expect(
            runs.filter { $0.status == .crashed }.allSatisfy {
                $0.signal == 11 && ($0.problem ?? "").contains("signal 11")
            })
        #expect(report.profile.successfulRuns == 2)
        // Failed runs fail the command (exit 2, one line), and the report shows them.
        #expect(result.status == 2)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("launchprof:") }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("2 of 4 runs failed") == true, "\(result.stderr)")
        #expect(result.stdout.contains("2 failed run(s)"))

        // --ignore-failures judges the runs that succeeded.
        try FileManager.default.removeItem(at: counter)
        let ignoring = try Executables.run([
            "measure", "--runs", "4", "--warmup", "0", "--ignore-failures", "--output", output.path, "--name", "flaky",
            "--", "/bin/sh", "-c", script,
        ])
        #expect(ignoring.status == 0, "\(ignoring.stderr)")
    }

    @Test func aLaunchThatCannotStartMidwayKeepsTheRunsBeforeIt() throws {
        let output = Executables.temporaryDirectory()
        // The program removes its own execute permission on its third launch.
        let program = output.appendingPathComponent("self-breaking.sh")
        let counter = output.appendingPathComponent("count")
        try Data(
            "#!/bin/sh\nn=$(cat \(counter.path) 2>/dev/null || echo 0); echo $((n+1)) > \(counter.path)\n[ $n = 2 ] && chmod -x \"$0\"\nexit 0\n"
                .utf8
        ).write(to: program)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        let result = try Executables.run([
            "measure", "--runs", "6", "--warmup", "0", "--output", output.path, "--name", "breaking", "--",
            program.path,
        ])
        #expect(result.status == 2)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("launchprof:") }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("run 4 of 6 could not be started") == true, "\(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("breaking.json").path)
        let kept = report.runs.count
        #expect(kept == 3)
        #expect(report.runs.allSatisfy { $0.status == .ok })
    }

    @Test func aReadyConditionThatAlreadyHoldsIsRefused() throws {
        let output = Executables.temporaryDirectory()
        let flag = output.appendingPathComponent("flag")
        try Data().write(to: flag)
        try expectUsageError(
            ["measure", "--runs", "2", "--output", output.path, "--ready", "file:\(flag.path)", "--", "/bin/true"],
            mentions: ["file:\(flag.path)", "exists before the launch"])
    }

    @Test func aFailingWarmUpStopsThereWithItsReason() throws {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run([
            "measure", "--runs", "5", "--warmup", "1", "--output", output.path, "--name", "broken",
            "--", "/bin/sh", "-c", "echo missing config >&2; exit 3",
        ])
        #expect(result.status == 2)
        #expect(
            result.stderr.split(separator: "\n").last?.contains("warm-up 1 failed (exited with code 3") == true,
            "\(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("broken.json").path)
        #expect(report.runs.count == 1 && report.runs[0].isWarmup)
        #expect(report.outcome.reason.contains("missing config"))
        // --ignore-failures goes on regardless.
        let going = try Executables.run([
            "measure", "--runs", "2", "--warmup", "1", "--ignore-failures", "--output", output.path,
            "--name", "broken", "--", "/bin/sh", "-c", "exit 3",
        ])
        #expect(
            try JSONReport.read(from: output.appendingPathComponent("broken.json").path).runs.count == 3,
            "\(going.stderr)")
    }

    @Test func aStdoutConditionThatTimesOutOnSilenceHintsAtBuffering() throws {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run([
            "measure", "--runs", "1", "--warmup", "0", "--timeout", "0.5", "--ready", "stdout:READY",
            "--output", output.path, "--name", "silent", "--", "sleep", "5",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("stdbuf -oL"), "\(result.stderr)")
        #expect(result.stderr.contains("python3 -u"))
    }

    @Test func aFileReadyConditionIsMadeAgainByEachLaunch() throws {
        let output = Executables.temporaryDirectory()
        let flag = output.appendingPathComponent("flag")
        let result = try Executables.run([
            "measure", "--runs", "3", "--warmup", "1", "--output", output.path, "--name", "flag",
            "--ready", "file:\(flag.path)", "--", "/bin/sh", "-c", "sleep 0.05; touch \(flag.path); sleep 5",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("flag.json").path)
        let ready = try #require(report.profile.statistics(.timeToReady)?.summary)
        // Every launch waited for its own file: none was ready at once.
        #expect(ready.min >= 50)
    }

    @Test func allRunsFailingExitsTwoWithTheReportWritten() throws {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run([
            "measure", "--runs", "2", "--warmup", "0", "--output", output.path, "--name", "crash", "--", "/bin/sh",
            "-c", "kill -ABRT $$",
        ])
        #expect(result.status == 2)
        // Progress lines go to stderr too when it is not a terminal; the error is one line.
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("launchprof:") }
        #expect(errors.count == 1, "\(result.stderr)")
        #expect(errors.first?.contains("every run failed") == true)
        let report = try JSONReport.read(from: output.appendingPathComponent("crash.json").path)
        #expect(report.runs.allSatisfy { $0.status == .crashed && $0.signal == 6 })
    }

    @Test func aHangingLaunchIsKilledAtTheTimeout() throws {
        let output = Executables.temporaryDirectory()
        let started = Date()
        let result = try Executables.run([
            "measure", "--runs", "2", "--warmup", "0", "--timeout", "0.3", "--output", output.path, "--name", "hang",
            "--", "sleep", "30",
        ])
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(result.status == 2)
        let report = try JSONReport.read(from: output.appendingPathComponent("hang.json").path)
        #expect(report.runs.allSatisfy { $0.status == .timedOut })
    }

    @Test func aTruncatedTraceMarksTheRunInvalidAndNamesTheFile() throws {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run([
            "measure", "--runs", "2", "--warmup", "0", "--output", output.path, "--name", "truncated", "--",
            Executables.fixture, "truncated-trace",
        ])
        #expect(result.status == 2)
        let report = try JSONReport.read(from: output.appendingPathComponent("truncated.json").path)
        for run in report.runs {
            #expect(run.status == .invalidTrace)
            #expect((run.problem ?? "").contains("trace.lptrace"))
            #expect((run.problem ?? "").contains("invalid trace at byte"))
        }
    }

    @Test func helpAndVersion() throws {
        let version = try Executables.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("launchprof "))
        let help = try Executables.run(["measure", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--runs N"))
    }
}

/// What a launch leaves behind, and readiness that ends a launch early.
@Suite("measure: launches that misbehave")
struct MisbehavingLaunchTests {
    @Test func processesThatLeaveTheGroupAreEndedAndReported() throws {
        let output = Executables.temporaryDirectory()
        let pids = output.appendingPathComponent("pids")
        let started = output.appendingPathComponent("started")
        // Each launch starts a process in a session of its own (out of reach of a group kill), waits until
        // that process has written its pid (it then creates started.<launch's pid>), then exits.
        let script =
            "setsid sh -c 'echo $$ >> \(pids.path); touch \(started.path).$1; exec sleep 300' daemon $$ & "
            + "while [ ! -e \(started.path).$$ ]; do sleep 0.01; done; exit 0"
        let result = try Executables.run([
            "measure", "--runs", "2", "--warmup", "0", "--output", output.path, "--name", "daemon", "--", "/bin/sh",
            "-c", script,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("left processes running outside their process group"))
        let report = try JSONReport.read(from: output.appendingPathComponent("daemon.json").path)
        #expect(report.runs.allSatisfy { $0.leftoverProcesses == 1 })
        let daemons = ProcessControlTests.processIDs(in: pids)
        #expect(daemons.count == 2)
        for pid in daemons {
            // Gone, or a zombie its new parent has not reaped yet; a signal already sent may take a moment.
            let ended = ProcessControlTests.waitUntilEnded(pid, seconds: 10)
            #expect(ended, "process \(pid) is still running")
            if !ended { kill(pid, SIGKILL) }
        }
    }

    @Test func readyOnStdoutThenExitingWithAnErrorIsStillReady() throws {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run([
            "measure", "--runs", "10", "--warmup", "0", "--output", output.path, "--name", "early",
            "--ready", "stdout:ready", "--", "/bin/sh", "-c", "echo ready; exit 1",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("early.json").path)
        #expect(report.runs.allSatisfy { $0.status == .ok })
    }

    @Test func aBackgroundLaunchCannotBeMeasuredToItsFirstFrame() throws {
        let result = try Executables.run(["measure", "--ready", "first-frame", "--launch-option", "background=true"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("background"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
