import Foundation
import LaunchAnalysis
import LaunchMeasure
import Testing
import _LaunchProfTestSupport

/// Real launches of small shell and Python programs.
///
/// Serialized so that timing bounds are not at the mercy of sibling launches
/// on a small machine. Timing assertions are lower bounds the programs
/// guarantee (they sleep first) plus generous upper bounds; every program
/// that would otherwise run for 30 s must be stopped by the launcher.
@Suite("Launcher.launch", .serialized)
struct LauncherTests {
    let scratch = ScratchDirectory("launchmeasure-tests")

    /// Runs `script` with `/bin/sh -c`, with `$1`, `$2`… set to `parameters`.
    func shell(
        _ script: String, _ parameters: String..., ready: ReadyCondition = .exit, timeout: Double = 10,
        environment: [String: String] = [:], grace: Double = 5, pseudoTerminal: Bool = false
    ) throws -> LaunchResult {
        try Launcher.launch(
            LaunchRequest(
                executable: "/bin/sh", arguments: ["-c", script, "sh"] + parameters, extraEnvironment: environment,
                ready: ready, timeoutSeconds: timeout, workDirectory: scratch.file("run"), readyGraceSeconds: grace,
                pseudoTerminal: pseudoTerminal))
    }

    // MARK: Exit status

    @Test("an exit status is reported")
    func exitCode() throws {
        let outcome = try shell("exit 3")
        #expect(outcome.termination == .exited(code: 3))
        #expect(outcome.readyNanoseconds == outcome.exitNanoseconds)
        #expect(!outcome.readyIsExitFallback)
        #expect(outcome.processID > 0)
    }

    @Test("a crash is reported with its signal")
    func crash() throws {
        // `ulimit -c 0`: no core file in the current directory.
        let outcome = try shell("ulimit -c 0; kill -SEGV $$")
        #expect(outcome.termination == .signaled(signal: 11))
        #expect(outcome.readyNanoseconds != nil)
    }

    // MARK: Output and environment

    @Test("stdout and stderr go to files in the work directory, created if missing")
    func output() throws {
        let outcome = try shell("echo out; echo err >&2; echo more")
        #expect(outcome.stdoutPath == scratch.file("run/stdout.txt"))
        #expect(outcome.stderrPath == scratch.file("run/stderr.txt"))
        #expect(ScratchDirectory.read(outcome.stdoutPath) == "out\nmore\n")
        #expect(ScratchDirectory.read(outcome.stderrPath) == "err\n")
    }

    @Test("only the last outputLimitBytes of stdout and stderr are kept, after a line that says so")
    func outputLimit() throws {
        // 3 MiB on each, then a last line: the head is freed while it writes, the rest cut once it ended.
        let script = "yes | head -c 3145728; echo last-out; yes | head -c 3145728 >&2; echo last-err >&2"
        let limit = 65_536
        let outcome = try Launcher.launch(
            LaunchRequest(
                executable: "/bin/sh", arguments: ["-c", script], ready: .exit, timeoutSeconds: 60,
                workDirectory: scratch.file("run"), outputLimitBytes: limit))
        #expect(outcome.termination == .exited(code: 0))
        for (path, last) in [(outcome.stdoutPath, "last-out\n"), (outcome.stderrPath, "last-err\n")] {
            let text = ScratchDirectory.read(path)
            let dropped = 3_145_728 + last.utf8.count - limit
            let header =
                "[launchprof: the first \(dropped) bytes of \(3_145_728 + last.utf8.count) were dropped; the last \(limit) are kept]\n"
            #expect(text.hasPrefix(header), "\(text.prefix(120))")
            #expect(text.utf8.count == header.utf8.count + limit)
            #expect(text.hasSuffix("y\n" + last))
        }
    }

    @Test("stdin is /dev/null")
    func standardInput() throws {
        let outcome = try shell("cat; echo end", timeout: 5)
        #expect(outcome.termination == .exited(code: 0))
        #expect(ScratchDirectory.read(outcome.stdoutPath) == "end\n")
    }

    @Test("the child sees the spawn time, the extra environment and the ready descriptor")
    func environment() throws {
        let before = monotonicNanoseconds()
        let outcome = try shell(
            #"echo "$LAUNCHPROF_SPAWN_NS"; echo "$GREETING"; echo "$LAUNCHPROF_READY_FD"; echo "${HOME+inherited}""#,
            environment: ["GREETING": "hello world", "LAUNCHPROF_READY_FD": "9", "LAUNCHPROF_SPAWN_NS": "1"])
        let after = monotonicNanoseconds()
        let lines = ScratchDirectory.read(outcome.stdoutPath).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.flatMap { UInt64($0) } == outcome.spawnNanoseconds)
        #expect(lines.dropFirst().first == "hello world")
        #expect(lines.dropFirst(2).first == "3")  // the launcher's value wins over extraEnvironment
        if ProcessInfo.processInfo.environment["HOME"] != nil {
            #expect(lines.dropFirst(3).first == "inherited")
        }
        // The stamp is CLOCK_MONOTONIC, the same clock as this process's.
        #expect(before <= outcome.spawnNanoseconds && outcome.spawnNanoseconds <= after)
    }

    // MARK: Timing and timeouts

    /// Every launch is at least the 100 ms the program sleeps (a bound no load can
    /// break); the fastest of three stays under 150 ms: one launch may be delayed
    /// by a busy machine, but the launcher adding 50 ms to all three is a defect.
    @Test("a 100 ms sleep measures at least 100 ms, and the fastest of three launches under 150 ms")
    func sleepDuration() throws {
        var elapsed: [UInt64] = []
        for index in 0..<3 {
            let outcome = try Launcher.launch(
                LaunchRequest(
                    executable: "sleep", arguments: ["0.1"], ready: .exit, timeoutSeconds: 10,
                    workDirectory: scratch.file("run-\(index)")))
            #expect(outcome.termination == .exited(code: 0))
            let exit = try #require(outcome.exitNanoseconds)
            #expect(exit - outcome.spawnNanoseconds >= 100_000_000)
            elapsed.append(exit - outcome.spawnNanoseconds)
        }
        #expect(try #require(elapsed.min()) < 150_000_000, "\(elapsed) ns")
    }

    @Test("a program that is not ready in time is killed and timed out")
    func timeout() throws {
        let before = monotonicNanoseconds()
        let outcome = try Launcher.launch(
            LaunchRequest(
                executable: "sleep", arguments: ["30"], ready: .exit, timeoutSeconds: 0.3,
                workDirectory: scratch.file("run")))
        let returned = monotonicNanoseconds()
        #expect(outcome.termination == .timedOut)
        #expect(outcome.readyNanoseconds == nil)
        let exit = try #require(outcome.exitNanoseconds)
        #expect(exit - outcome.spawnNanoseconds >= 300_000_000)
        #expect(returned - before < 5_000_000_000)
    }

    @Test("a timeout kills the whole process group, grandchildren included")
    func timeoutKillsGroup() throws {
        let pidFile = scratch.file("grandchild.pid")
        // 2 s: time enough for the shell to start its grandchild and write its pid on a
        // busy machine; the script sleeps 30 s, so only the timeout can end it.
        let outcome = try shell(#"sleep 30 & echo $! > "$1"; sleep 30"#, pidFile, timeout: 2)
        #expect(outcome.termination == .timedOut)
        let grandchild = try #require(
            Int32(ScratchDirectory.read(pidFile).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(processEnded(grandchild))
    }

    @Test("a program that exits leaves nothing of its group behind")
    func exitKillsGroup() throws {
        let pidFile = scratch.file("grandchild.pid")
        let outcome = try shell(#"sleep 30 & echo $! > "$1"; exit 0"#, pidFile)
        #expect(outcome.termination == .exited(code: 0))
        let grandchild = try #require(
            Int32(ScratchDirectory.read(pidFile).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(processEnded(grandchild))
    }

    @Test("a timeout too long to count in nanoseconds waits for the exit instead of crashing")
    func hugeTimeout() throws {
        let outcome = try shell("exit 0", timeout: 1e300)
        #expect(outcome.termination == .exited(code: 0))
    }

    // MARK: Ready conditions

    @Test("stdout:REGEX is ready at the matching line, and the program is stopped")
    func stdoutPattern() throws {
        let before = monotonicNanoseconds()
        let outcome = try shell(
            "echo starting; sleep 0.05; echo READY now; sleep 30", ready: .stdout(pattern: "READY"), timeout: 10)
        let returned = monotonicNanoseconds()
        #expect(outcome.termination == .stoppedAtReady)
        let ready = try #require(outcome.readyNanoseconds)
        #expect(ready - outcome.spawnNanoseconds >= 50_000_000)
        #expect(returned - before < 5_000_000_000)
        #expect(ScratchDirectory.read(outcome.stdoutPath) == "starting\nREADY now\n")
    }

    @Test("stdout:REGEX is a regular expression, matched anywhere in a line")
    func stdoutRegex() throws {
        let outcome = try shell(
            "echo 'port 80 closed'; echo 'now listening on port 8123 (http)'; sleep 30",
            ready: .stdout(pattern: "listening on port [0-9]+ "), timeout: 10)
        #expect(outcome.termination == .stoppedAtReady)
        #expect(outcome.readyNanoseconds != nil)
    }

    @Test("stdout:REGEX matches a last line without a newline")
    func stdoutLastLine() throws {
        let outcome = try shell("printf 'all set'", ready: .stdout(pattern: "set$"), timeout: 10)
        #expect(outcome.readyNanoseconds != nil)
        #expect(outcome.termination == .exited(code: 0) || outcome.termination == .stoppedAtReady)
        #expect(ScratchDirectory.read(outcome.stdoutPath) == "all set")
    }

    @Test("stdout:REGEX searches the last 64 KiB of a line longer than that")
    func stdoutLongLine() throws {
        // 200,000 bytes, then READY, on one line: only the line's end is searched, and it holds READY.
        let outcome = try shell(
            "head -c 200000 /dev/zero | tr '\\0' x; echo READY; sleep 30", ready: .stdout(pattern: "xREADY$"),
            timeout: 10)
        #expect(outcome.termination == .stoppedAtReady)
        #expect(outcome.readyNanoseconds != nil)
    }

    @Test("the child starts in its own process group with no signal blocked or ignored, and only fds 0–3 open")
    func processState() throws {
        let outcome = try shell(
            "echo pgid $(ps -o pgid= -p $$) pid $$; ls /proc/$$/fd; exec grep -E '^Sig(Blk|Ign)' /proc/self/status")
        let lines = ScratchDirectory.read(outcome.stdoutPath).split(separator: "\n").map(String.init)
        let ids = lines.first?.split(separator: " ").map(String.init) ?? []
        #expect(ids.count == 4 && ids[1] == ids[3], "\(lines)")
        #expect(lines.suffix(2) == ["SigBlk:\t0000000000000000", "SigIgn:\t0000000000000000"], "\(lines)")
        // ls itself opens one more descriptor to read the folder.
        #expect(Set(lines.dropFirst().dropLast(2)).isSubset(of: ["0", "1", "2", "3", "4"]), "\(lines)")
    }

    @Test("with pseudoTerminal, stdout is a terminal and is kept byte for byte; stderr is not")
    func pseudoTerminal() throws {
        let outcome = try shell(
            "[ -t 1 ] && echo stdout is a terminal; [ -t 2 ] || echo stderr is not >&2", pseudoTerminal: true)
        #expect(outcome.termination == .exited(code: 0))
        #expect(ScratchDirectory.read(outcome.stdoutPath) == "stdout is a terminal\n")
        #expect(ScratchDirectory.read(outcome.stderrPath) == "stderr is not\n")
    }

    @Test("stdout:REGEX that never matches is never ready")
    func stdoutNoMatch() throws {
        let outcome = try shell("echo nothing here", ready: .stdout(pattern: "READY"), timeout: 10)
        #expect(outcome.readyNanoseconds == nil)
        #expect(outcome.termination == .exited(code: 0))
    }

    @Test("port:N is ready when 127.0.0.1:N accepts a connection")
    func port() throws {
        let port = try freeLoopbackPort()
        let before = monotonicNanoseconds()
        let outcome = try Launcher.launch(
            LaunchRequest(
                executable: "python3",
                arguments: [
                    "-c",
                    """
                    import socket, sys, time
                    time.sleep(0.1)
                    s = socket.socket()
                    s.bind(("127.0.0.1", int(sys.argv[1])))
                    s.listen()
                    time.sleep(30)
                    """, String(port),
                ],
                ready: .port(port), timeoutSeconds: 10, workDirectory: scratch.file("run")))
        let returned = monotonicNanoseconds()
        #expect(outcome.termination == .stoppedAtReady)
        let ready = try #require(outcome.readyNanoseconds)
        #expect(ready - outcome.spawnNanoseconds >= 100_000_000)
        #expect(returned - before < 5_000_000_000)
        #expect(ScratchDirectory.read(outcome.stderrPath) == "")
        #expect(outcome.readyAddress == "127.0.0.1")
    }

    /// True when this machine can bind the IPv6 loopback address (some containers cannot).
    static let canBindIPv6Loopback: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import socket; s = socket.socket(socket.AF_INET6); s.bind(('::1', 0))"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    @Test(
        "port:N is ready when a server listens on ::1 only, and says which address answered",
        .enabled(if: canBindIPv6Loopback, "::1 cannot be bound on this machine (no IPv6 loopback)"))
    func portIPv6() throws {
        let port = try freeLoopbackPort()
        let outcome = try Launcher.launch(
            LaunchRequest(
                executable: "python3",
                arguments: [
                    "-c",
                    """
                    import socket, sys, time
                    time.sleep(0.1)
                    s = socket.socket(socket.AF_INET6)
                    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                    s.bind(("::1", int(sys.argv[1])))
                    s.listen()
                    time.sleep(30)
                    """, String(port),
                ],
                ready: .port(port), timeoutSeconds: 10, workDirectory: scratch.file("run")))
        #expect(outcome.termination == .stoppedAtReady, "stderr: \(ScratchDirectory.read(outcome.stderrPath))")
        #expect(outcome.readyNanoseconds != nil)
        #expect(outcome.readyAddress == "::1")
    }

    @Test("file:PATH is ready when the file appears")
    func file() throws {
        let marker = scratch.file("ready-marker")
        let before = monotonicNanoseconds()
        let outcome = try shell(#"sleep 0.05; touch "$1"; sleep 30"#, marker, ready: .file(path: marker), timeout: 10)
        let returned = monotonicNanoseconds()
        #expect(outcome.termination == .stoppedAtReady)
        let ready = try #require(outcome.readyNanoseconds)
        #expect(ready - outcome.spawnNanoseconds >= 50_000_000)
        #expect(returned - before < 5_000_000_000)
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    @Test("first-frame is the program's firstFrame line; a program that exits by itself keeps its status")
    func firstFrame() throws {
        let outcome = try shell("echo firstFrame >&3; echo done >&3; exit 0", ready: .firstFrame)
        #expect(outcome.readyLines.map(\.text) == ["firstFrame", "done"])
        let ready = try #require(outcome.readyNanoseconds)
        #expect(ready == arrival(of: "firstFrame", in: outcome))
        #expect(!outcome.readyIsExitFallback)
        #expect(outcome.termination == .exited(code: 0))
        let exit = try #require(outcome.exitNanoseconds)
        #expect(ready <= exit)
    }

    @Test("a program that reports first-frame but does not exit is stopped after the grace period")
    func firstFrameGrace() throws {
        let before = monotonicNanoseconds()
        let outcome = try shell("echo firstFrame >&3; sleep 30", ready: .firstFrame, grace: 0.2)
        let returned = monotonicNanoseconds()
        #expect(outcome.termination == .stoppedAtReady)
        let ready = try #require(outcome.readyNanoseconds)
        let exit = try #require(outcome.exitNanoseconds)
        #expect(exit - ready >= 200_000_000)
        #expect(returned - before < 5_000_000_000)
    }

    @Test("a grace period too long to count in nanoseconds does not crash")
    func hugeGrace() throws {
        let outcome = try shell("echo fullyDrawn >&3; exit 0", ready: .fullyDrawn, grace: .infinity)
        #expect(outcome.termination == .exited(code: 0))
        #expect(outcome.readyNanoseconds == arrival(of: "fullyDrawn", in: outcome))
    }

    @Test("a program that exits without reporting first-frame is ready at its exit, flagged as a fallback")
    func firstFrameFallback() throws {
        let outcome = try shell("exit 0", ready: .firstFrame)
        #expect(outcome.readyIsExitFallback)
        #expect(outcome.readyNanoseconds != nil)
        #expect(outcome.readyNanoseconds == outcome.exitNanoseconds)
        #expect(outcome.readyLines.isEmpty)
        #expect(outcome.termination == .exited(code: 0))
    }

    @Test("fully-drawn waits for fullyDrawn, not firstFrame")
    func fullyDrawn() throws {
        let outcome = try shell(
            "echo firstFrame >&3; sleep 0.05; echo fullyDrawn >&3; exit 0", ready: .fullyDrawn)
        let first = try #require(arrival(of: "firstFrame", in: outcome))
        let ready = try #require(outcome.readyNanoseconds)
        #expect(ready == arrival(of: "fullyDrawn", in: outcome))
        // Line times are when the launcher read them; only the spawn bounds them from below.
        // Both lines may be read in one go on a busy machine (the same stamp), so the order is
        // `>=`; the 50 ms after the spawn shows that the launcher waited past firstFrame.
        #expect(ready >= first)
        #expect(ready - outcome.spawnNanoseconds >= 50_000_000)
        #expect(!outcome.readyIsExitFallback)
    }

    // MARK: Refusals

    @Test("bad settings are refused before anything starts", arguments: [0, -1, Double.nan])
    func badTimeout(seconds: Double) {
        let error = #expect(throws: LaunchError.self) { try shell("exit 0", timeout: seconds) }
        guard case .badSetting(let name, _, _)? = error else {
            Issue.record("expected badSetting, got \(String(describing: error))")
            return
        }
        #expect(name == "timeout")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("run")))
    }

    @Test("environment names that cannot be passed are refused", arguments: ["", "A=B"])
    func badEnvironmentName(name: String) {
        #expect(throws: LaunchError.badEnvironmentName(name)) {
            try shell("exit 0", environment: [name: "x"])
        }
    }

    @Test("a program that cannot be found, executed or loaded is an error, not an outcome")
    func unlaunchable() throws {
        let plain = try scratch.write("#!/bin/sh\nexit 0\n", to: "plain", permissions: 0o644)
        let garbage = try scratch.write("not a program\n", to: "garbage", permissions: 0o755)
        func launch(_ path: String) throws {
            _ = try Launcher.launch(
                LaunchRequest(
                    executable: path, ready: .exit, timeoutSeconds: 5, workDirectory: scratch.file("run")))
        }
        #expect(throws: LaunchError.programNotFound("launchprof-no-such-program", searchedPATH: true)) {
            try launch("launchprof-no-such-program")
        }
        #expect(throws: LaunchError.notExecutable(path: plain)) { try launch(plain) }
        #expect(throws: LaunchError.spawnFailed(path: garbage, code: ENOEXEC)) { try launch(garbage) }
    }

    @Test("a file or link where stdout.txt goes is an error that names it, never written through")
    func plantedOutputFile() throws {
        let victim = try scratch.write("untouched", to: "victim")
        try FileManager.default.createDirectory(atPath: scratch.file("run"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.file("run/stdout.txt"), withDestinationPath: victim)
        #expect(throws: LaunchError.cannotCreate(path: scratch.file("run/stdout.txt"), code: EEXIST)) {
            try shell("echo overwritten")
        }
        #expect(ScratchDirectory.read(victim) == "untouched")
        #expect(LaunchError.cannotCreate(path: "x", code: EEXIST).description.contains("never through a link"))
    }

    @Test("a work directory that is a link is an error that names it")
    func linkedWorkDirectory() throws {
        let elsewhere = scratch.file("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.file("run"), withDestinationPath: elsewhere)
        #expect(throws: LaunchError.linkInTheWay(path: scratch.file("run"))) { try shell("echo overwritten") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    @Test("a work directory that cannot be created is reported")
    func cannotCreate() throws {
        let blocker = try scratch.write("", to: "blocker", permissions: 0o644)
        let error = #expect(throws: LaunchError.self) {
            try Launcher.launch(
                LaunchRequest(
                    executable: "/bin/sh", arguments: ["-c", "exit 0"], ready: .exit, timeoutSeconds: 5,
                    workDirectory: blocker + "/run"))
        }
        guard case .cannotCreate(let path, _)? = error else {
            Issue.record("expected cannotCreate, got \(String(describing: error))")
            return
        }
        #expect(path == blocker + "/run")
    }
}

// MARK: Helpers

/// CLOCK_MONOTONIC in nanoseconds, the launcher's time base.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// True once `pid` no longer runs, waiting up to 2 s for a signal already sent
/// to take effect. A zombie counts as ended: an orphan is reparented to PID 1,
/// which in some containers never reaps, so `kill(pid, 0)` keeps succeeding.
func processEnded(_ pid: Int32) -> Bool {
    let deadline = monotonicNanoseconds() + 2_000_000_000
    repeat {
        if kill(pid, 0) == -1 && errno == ESRCH { return true }
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"),
            stat[close...].dropFirst().trimmingCharacters(in: .whitespaces).hasPrefix("Z")
        {
            return true
        }
        usleep(10_000)
    } while monotonicNanoseconds() < deadline
    return false
}

/// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then closed).
func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    try #require(bound)
    return UInt16(bigEndian: address.sin_port)
}

/// When the first ready-pipe line with `text` arrived in `outcome`, if it did.
func arrival(of text: String, in outcome: LaunchResult) -> UInt64? {
    outcome.readyLines.first { $0.text == text }?.nanoseconds
}
