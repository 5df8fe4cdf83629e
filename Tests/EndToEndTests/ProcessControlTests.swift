import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// How `measure` starts, watches and ends the measured program, run as a user would.
@Suite("measure: starting, watching and ending the program")
struct ProcessControlTests {
    /// True when `pid` has ended: gone, or a zombie its new parent has not reaped yet.
    static func hasEnded(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[close...].dropFirst(2).first == "Z"
    }

    /// Waits up to `seconds` for `pid` to end; true when it did.
    static func waitUntilEnded(_ pid: Int32, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !hasEnded(pid), Date() < deadline { usleep(10_000) }
        return hasEnded(pid)
    }

    /// The process ids written one a line in `url`.
    static func processIDs(in url: URL) -> [Int32] {
        String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self).split(separator: "\n").compactMap {
            Int32($0)
        }
    }

    /// A shell command that writes its own pid to `url` (whole, through a rename), then becomes `command`.
    static func announcing(_ url: URL, then command: String) -> String {
        "echo $$ > \(url.path).tmp && mv \(url.path).tmp \(url.path) && exec \(command)"
    }

    @Test func theProgramDiesWhenLaunchprofIsKilled() throws {
        let output = Executables.temporaryDirectory()
        let pidFile = output.appendingPathComponent("child.pid")
        let process = try Executables.start(
            [
                "measure", "--runs", "1", "--warmup", "0", "--timeout", "600", "--output", output.path, "--name",
                "killed",
                "--", "/bin/sh", "-c", Self.announcing(pidFile, then: "sleep 300"),
            ])
        try #require(Executables.waitUntilExists(pidFile), "the program never started")
        let child = try #require(Self.processIDs(in: pidFile).first)
        #expect(!Self.hasEnded(child))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let ended = Self.waitUntilEnded(child, seconds: 5)
        #expect(ended, "the measured program \(child) outlived launchprof")
        if !ended { kill(child, SIGKILL) }
    }

    @Test func aGrandchildInTheProgramsGroupDiesWhenLaunchprofIsKilled() throws {
        let output = Executables.temporaryDirectory()
        let pidFile = output.appendingPathComponent("grandchild.pid")
        // `sleep 48` in the background stays in the program's process group; the script waits for it.
        let script = "sleep 48 & echo $! > \(pidFile.path).tmp && mv \(pidFile.path).tmp \(pidFile.path); wait"
        let process = try Executables.start(
            [
                "measure", "--runs", "1", "--warmup", "0", "--timeout", "600", "--output", output.path, "--name",
                "group",
                "--", "/bin/sh", "-c", script,
            ])
        try #require(Executables.waitUntilExists(pidFile), "the script never wrote its pids")
        let grandchild = try #require(Self.processIDs(in: pidFile).first)
        #expect(!Self.hasEnded(grandchild))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let ended = Self.waitUntilEnded(grandchild, seconds: 10)
        #expect(ended, "the program's child \(grandchild) outlived launchprof")
        if !ended { kill(grandchild, SIGKILL) }
    }

    /// Issue 33, finding 7: after `kill -9` of launchprof, a grandchild that left the
    /// program's process group (`setsid`) survived under pid 1. The group watcher now
    /// also ends the processes that carry the launch's spawn stamp.
    @Test(
        .disabled(
            if: BuiltProducts.areThreadSanitized,
            "a ThreadSanitizer build cannot fork its group watcher: its stand-in (a shell script, sanitizers.h) ends groups only"
        ))
    func aGrandchildThatLeftTheGroupDiesWhenLaunchprofIsKilled() throws {
        let output = Executables.temporaryDirectory()
        let pidFile = output.appendingPathComponent("setsid.pid")
        let script =
            "setsid /bin/sh -c 'echo $$ > \(pidFile.path).tmp && mv \(pidFile.path).tmp \(pidFile.path) && exec sleep 300' & wait"
        let process = try Executables.start(
            [
                "measure", "--runs", "1", "--warmup", "0", "--timeout", "600", "--output", output.path, "--name",
                "left-group",
                "--", "/bin/sh", "-c", script,
            ])
        try #require(Executables.waitUntilExists(pidFile), "the script never wrote its pid")
        let grandchild = try #require(Self.processIDs(in: pidFile).first)
        #expect(!Self.hasEnded(grandchild))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let ended = Self.waitUntilEnded(grandchild, seconds: 10)
        #expect(ended, "the program's grandchild \(grandchild), in a session of its own, outlived launchprof")
        if !ended { kill(grandchild, SIGKILL) }
    }

    @Test func aDaemonThatDropsItsEnvironmentIsFoundAsAnOrphanAndEnded() throws {
        let output = Executables.temporaryDirectory()
        let pids = output.appendingPathComponent("pids")
        let marker = output.appendingPathComponent("started")
        // A daemon in a session of its own with an empty environment: nothing marks it as the launch's, but its parentage.
        // The launch exits once the daemon has written its pid (it then creates started.<launch's pid>).
        let script =
            "setsid env -i /bin/sh -c 'echo $$ >> \(pids.path); touch \(marker.path).$1; exec sleep 300' daemon $$ & "
            + "while [ ! -e \(marker.path).$$ ]; do sleep 0.01; done; exit 0"
        let result = try Executables.run(
            [
                "measure", "--runs", "2", "--warmup", "0", "--budget-ms", "60000", "--output", output.path, "--name",
                "bare-daemon",
                "--", "/bin/sh", "-c", script,
            ])
        let started = Self.processIDs(in: pids)
        defer { for pid in started where !Self.hasEnded(pid) { kill(pid, SIGKILL) } }
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("bare-daemon.json").path)
        #expect(report.runs.map(\.leftoverProcesses) == [1, 1])
        #expect(started.count == 2)
        for pid in started {
            #expect(Self.waitUntilEnded(pid, seconds: 10), "process \(pid) is still running")
        }
    }

    @Test func aPortConditionSaysWhichLoopbackAddressAnswered() throws {
        let output = Executables.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        // A server on 127.0.0.1 only, at a port that was free a moment ago.
        let socketNumber = try Self.freeIPv4Port()
        let script =
            "import socket, time; s = socket.socket(); s.bind(('127.0.0.1', \(socketNumber))); s.listen(); time.sleep(60)"
        let result = try Executables.run(
            [
                "measure", "--runs", "2", "--warmup", "0", "--timeout", "20", "--budget-ms", "60000", "--ready",
                "port:\(socketNumber)",
                "--no-color", "--output", output.path, "--name", "port-v4", "--", "python3", "-c", script,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("port-v4.json").path)
        #expect(report.runs.map(\.readyAddress) == ["127.0.0.1", "127.0.0.1"])
        #expect(result.stdout.contains("port:\(socketNumber) (answered on 127.0.0.1)"), "\(result.stdout)")
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago.
    static func freeIPv4Port() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func aLongLineWithoutANewlineKeepsLaunchprofSmall() throws {
        let output = Executables.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        // 200 MB and no newline; then the program, launchprof's child, writes launchprof's peak memory on its stderr.
        let script = "head -c 200000000 /dev/zero | tr '\\0' a; grep VmHWM /proc/$PPID/status >&2"
        let result = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--timeout", "120", "--ready", "stdout:READY", "--output",
                output.path,
                "--name", "long-line", "--", "/bin/sh", "-c", script,
            ])
        #expect(result.status == 2, "\(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("long-line.json").path)
        let run = try #require(report.runs.first)
        #expect(run.status == .neverReady)
        let peak = ScratchDirectory.read(try #require(run.stderrPath)).split(whereSeparator: { !$0.isNumber })
            .compactMap { Int($0) }.first
        let kilobytes = try #require(peak, "no VmHWM line in \(run.stderrPath ?? "")")
        #expect(kilobytes < 100_000, "launchprof's peak memory was \(kilobytes) kB")
    }

    @Test func aPatternThatWouldBacktrackEndsAtTheTimeout() throws {
        let output = Executables.temporaryDirectory()
        let started = Date()
        let result = try Executables.run(
            [
                "measure", "--runs", "1", "--warmup", "0", "--timeout", "2", "--ready", "stdout:^(a+)+$", "--output",
                output.path,
                "--name", "backtrack", "--", "/bin/sh", "-c", "echo aaaaaaaaaaaaaaaaaaaa!; exec sleep 60",
            ],
            timeoutSeconds: 120)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 2, "\(result.stderr)")
        // The timeout is 2 s; a search that backtracks takes over a minute.
        #expect(elapsed < 20, "the launch ended \(elapsed) s after it began")
        let report = try JSONReport.read(from: output.appendingPathComponent("backtrack.json").path)
        #expect(report.runs.first?.status == .timedOut)
    }

    /// True when `python3` is on PATH (the buffering program the `--pty` test runs).
    static let hasPython3 = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/python3")
    }

    @Test(.enabled(if: hasPython3, "python3 is not installed"))
    func aProgramThatBuffersWhenNotATerminalIsReadyUnderPty() throws {
        let output = Executables.temporaryDirectory()
        // Python block-buffers stdout when it is not a terminal (unless PYTHONUNBUFFERED is set).
        let program = ["env", "-u", "PYTHONUNBUFFERED", "python3", "-c", "import time\nprint('READY')\ntime.sleep(60)"]
        let common = [
            "measure", "--runs", "1", "--warmup", "0", "--ready", "stdout:^READY$", "--budget-ms", "60000",
            "--output", output.path,
        ]
        // Piped, READY never comes (it sits in Python's buffer), so only the timeout ends the run: a short one.
        let piped = try Executables.run(common + ["--timeout", "3", "--name", "piped", "--"] + program)
        #expect(piped.status == 2)
        #expect(piped.stderr.contains("--pty"), "\(piped.stderr)")

        // Under a terminal READY comes as soon as Python has started, which a busy machine can delay past 3 s.
        let terminal = try Executables.run(common + ["--timeout", "20", "--name", "terminal", "--pty", "--"] + program)
        #expect(terminal.status == 0, "\(terminal.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("terminal.json").path)
        let run = try #require(report.runs.first)
        #expect(run.status == .ok)
        // Kept byte for byte: the terminal adds no carriage return.
        #expect(ScratchDirectory.read(try #require(run.stdoutPath)) == "READY\n")
    }
}

/// `--setup`, `--prepare` and `--cleanup`: shell commands around the launches.
@Suite("measure: commands around the launches")
struct SessionCommandTests {
    static func lines(_ url: URL) -> [String] {
        String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func setupPrepareAndCleanupRunAroundTheLaunchesAndAreNotTimed() throws {
        let output = Executables.temporaryDirectory()
        let log = output.appendingPathComponent("log").path
        let result = try Executables.run(
            [
                "measure", "--runs", "3", "--warmup", "1", "--ready", "exit", "--output", output.path, "--name",
                "around",
                "--setup", "echo setup >> \(log)", "--prepare", "echo prepare >> \(log); sleep 0.3",
                "--cleanup", "echo cleanup >> \(log)", "--", "/bin/true",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            Self.lines(URL(fileURLWithPath: log)) == ["setup", "prepare", "prepare", "prepare", "prepare", "cleanup"])
        let report = try JSONReport.read(from: output.appendingPathComponent("around.json").path)
        // Each prepare takes 300 ms: none of it is in a launch's time.
        #expect(report.runs.count == 4)
        #expect(report.runs.allSatisfy { ($0.timeToReadyMs ?? .infinity) < 300 }, "\(report.runs.map(\.timeToReadyMs))")
    }

    @Test func aServerStartedBySetupIsNotALeftover() throws {
        let output = Executables.temporaryDirectory()
        let pid = output.appendingPathComponent("server.pid").path
        let stopped = output.appendingPathComponent("stopped").path
        // The server outlives the setup's shell: launchprof adopts it, and must leave it running.
        let result = try Executables.run(
            [
                "measure", "--runs", "3", "--warmup", "1", "--ready", "exit", "--output", output.path, "--name",
                "server",
                "--setup", "sleep 300 & echo $! > \(pid)", "--cleanup", "kill $(cat \(pid)) && touch \(stopped)", "--",
                "/bin/true",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONReport.read(from: output.appendingPathComponent("server.json").path)
        #expect(report.runs.allSatisfy { $0.leftoverProcesses == nil })
        #expect(FileManager.default.fileExists(atPath: stopped), "the server was gone before the cleanup")
    }

    @Test func aFailingPrepareEndsTheMeasurementNamingItAndKeepsTheRuns() throws {
        let output = Executables.temporaryDirectory()
        let count = output.appendingPathComponent("count").path
        let cleaned = output.appendingPathComponent("cleaned")
        // The third prepare (before run 2) fails.
        let prepare =
            "n=$(cat \(count) 2>/dev/null || echo 0); echo $((n+1)) > \(count); [ $n -lt 2 ] || { echo 'no cache folder' >&2; exit 4; }"
        let result = try Executables.run(
            [
                "measure", "--runs", "5", "--warmup", "1", "--ready", "exit", "--output", output.path, "--name",
                "prepare-fails",
                "--prepare", prepare, "--cleanup", "touch \(cleaned.path)", "--", "/bin/true",
            ])
        #expect(result.status == 2)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("launchprof:") }
        #expect(errors.count == 1, "\(result.stderr)")
        let error = String(errors.first ?? "")
        #expect(
            error.contains("--prepare") && error.contains("exited with code 4") && error.contains("no cache folder"),
            "\(error)")
        let report = try JSONReport.read(from: output.appendingPathComponent("prepare-fails.json").path)
        #expect(report.runs.count == 2)  // the warm-up and run 1
        #expect(report.runs.allSatisfy { $0.status == .ok })
        #expect(FileManager.default.fileExists(atPath: cleaned.path), "cleanup did not run after the failure")
    }

    @Test func aFailingSetupIsAnErrorAndNothingIsLaunched() throws {
        let output = Executables.temporaryDirectory()
        let launched = output.appendingPathComponent("launched")
        let result = try Executables.run(
            [
                "measure", "--runs", "2", "--output", output.path, "--name", "setup-fails", "--setup",
                "echo no database >&2; exit 3",
                "--", "/bin/sh", "-c", "touch \(launched.path)",
            ])
        #expect(result.status == 2)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("launchprof:") }
        #expect(
            errors.count == 1 && errors[0].contains("--setup") && errors[0].contains("no database"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: launched.path))
    }

    @Test func cleanupRunsWhenTheMeasurementIsStopped() throws {
        let output = Executables.temporaryDirectory()
        let launched = output.appendingPathComponent("launched")
        let cleaned = output.appendingPathComponent("cleaned")
        let process = try Executables.start(
            [
                "measure", "--runs", "5", "--warmup", "0", "--output", output.path, "--name", "stopped-cleanup",
                "--cleanup", "touch \(cleaned.path)", "--", "/bin/sh", "-c", "touch \(launched.path); exec sleep 60",
            ])
        try #require(Executables.waitUntilExists(launched), "the program never started")
        process.terminate()  // SIGTERM: the launch ends at once
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + 15)
        #expect(FileManager.default.fileExists(atPath: cleaned.path))
    }

    @Test func aCtrlCDuringPrepareLetsItFinishAndLaunchesNothingMore() throws {
        let output = Executables.temporaryDirectory()
        let started = output.appendingPathComponent("started")
        let finished = output.appendingPathComponent("finished")
        let launched = output.appendingPathComponent("launched")
        let go = output.appendingPathComponent("go")
        // The prepare cannot finish before the Ctrl-C is sent: it waits for `go`, which the test creates after it.
        let process = try Executables.start(
            [
                "measure", "--runs", "5", "--warmup", "0", "--output", output.path, "--name", "interrupted-prepare",
                "--prepare",
                "touch \(started.path); while [ ! -e \(go.path) ]; do sleep 0.01; done; touch \(finished.path)",
                "--", "/bin/sh", "-c", "touch \(launched.path)",
            ])
        let isPreparing = Executables.waitUntilExists(started, seconds: 60)
        if !isPreparing { try? Data().write(to: go) }  // never leave the prepare waiting
        try #require(isPreparing, "the prepare never started")
        process.interrupt()  // a first Ctrl-C: stop after what is under way
        try Data().write(to: go)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(FileManager.default.fileExists(atPath: finished.path), "the prepare was cut short")
        #expect(!FileManager.default.fileExists(atPath: launched.path), "a launch was made after the Ctrl-C")
    }

    @Test func compareRunsSetupAndCleanupOnceAndPrepareBeforeEveryLaunchOfBothSides() throws {
        let output = Executables.temporaryDirectory()
        let log = output.appendingPathComponent("log").path
        let result = try Executables.run(
            [
                "compare", "--base", "/bin/true", "--head", "/bin/true", "--stages", "6", "--alpha", "0.2", "--warmup",
                "1",
                "--output", output.path, "--format", "json", "--quiet",
                "--setup", "echo setup >> \(log)", "--prepare", "echo prepare >> \(log)", "--cleanup",
                "echo cleanup >> \(log)",
            ])
        #expect([0, 3].contains(result.status), "\(result.stderr)")
        // One warm-up and six counted launches per side.
        #expect(
            Self.lines(URL(fileURLWithPath: log)) == ["setup"] + Array(repeating: "prepare", count: 14) + ["cleanup"])
    }
}
