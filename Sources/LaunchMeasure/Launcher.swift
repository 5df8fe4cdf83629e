import LaunchAnalysis
import LaunchTracing
import _LaunchSystem

/// Launches one program and watches it until it is ready, exits or times out.
///
/// The program is started directly (no shell: clone and execve) in a process
/// group of its own, stdin from /dev/null, stdout and stderr to files (stdout
/// through a pipe, or a pseudo-terminal with ``LaunchRequest/pseudoTerminal``,
/// when it must be watched), and a pipe on fd 3 (`LAUNCHPROF_READY_FD=3`) on
/// which an instrumented program writes `firstFrame`, `fullyDrawn`, `flushed` and `done`.
/// A program that keeps running after it is ready is ended as soon as its tracer
/// says `flushed`: at the ready mark (`LAUNCHPROF_FLUSH_AT`), or, when the launcher
/// sees it ready itself and the tracer said `listening`, after a `flush` request on
/// the control pipe (fd 4, `LAUNCHPROF_CONTROL_FD`), waited for at most ``flushWaitSeconds``.
/// It dies with launchprof (`PR_SET_PDEATHSIG`), even a launchprof killed with
/// SIGKILL, and so does what it started in its group (the group watcher: see
/// `Platform.groupWatcher`). Each output file keeps at most the last
/// ``LaunchRequest/outputLimitBytes``. The parent's CLOCK_MONOTONIC time read just before the spawn is
/// handed down as `LAUNCHPROF_SPAWN_NS`. When the program exits by itself, what it
/// left running (the rest of its group, and descendants carrying that stamp) is
/// waited out, up to the launch's timeout (``LaunchResult/childrenCutOff`` when
/// reached), and the CPU time of those reaped here is added; then everything left
/// in the process group is killed and the child is reaped. A program launchprof
/// ends (at a `port:`, `stdout:` or `file:` ready condition, or a timeout) is ended with its group at once.
///
/// ```swift
/// let outcome = try Launcher.launch(LaunchRequest(
///     executable: "sleep", arguments: ["0.1"], ready: .exit,
///     timeoutSeconds: 20, workDirectory: "/tmp/run-1"))
/// ```
public enum Launcher {
    /// The descriptor the ready pipe has in the child.
    public static let readyDescriptor: Int32 = 3
    /// The descriptor the control pipe has in the child, when the launcher sees the
    /// launch ready itself (`LAUNCHPROF_CONTROL_FD`, ``ReadyCondition/Detection/isSeenByLauncher``).
    public static let controlDescriptor: Int32 = 4
    /// The longest the launcher waits, once it has seen the launch ready, for the tracer
    /// to write the trace it asked for (`flushed`) before it ends the program.
    public static let flushWaitSeconds = LaunchContract.flushWaitSeconds

    /// Launches `request` and returns when the program has ended.
    ///
    /// - Throws: ``LaunchError`` when the program cannot be found or started, or
    ///   its output files cannot be created. A program that starts and then
    ///   crashes, fails or hangs is not an error: its ``LaunchResult`` says so.
    public static func launch(_ request: LaunchRequest) throws(LaunchError) -> LaunchResult {
        guard request.timeoutSeconds > 0, !request.timeoutSeconds.isNaN else {
            throw .badSetting(name: "timeout", value: request.timeoutSeconds, expected: "a positive number of seconds")
        }
        for name in request.extraEnvironment.keys where name.isEmpty || name.contains("=") {
            throw .badEnvironmentName(name)
        }
        let path = try resolve(request.executable)
        try checkNotReadyYet(request.ready)
        let (stdoutFile, stderrFile) = try createOutputFiles(request)
        defer {
            Platform.close(stdoutFile)
            Platform.close(stderrFile)
        }

        let readyPipe: (read: Int32, write: Int32)
        do { readyPipe = try Platform.makePipe() } catch { throw .systemCallFailed(name: "pipe", code: error.code) }
        defer { Platform.close(readyPipe.read) }
        // stdout:REGEX needs to see the output as it arrives, and a pseudo-terminal
        // must be read: it goes through a pipe (or the terminal), copied to the file.
        var stdoutPipe: (read: Int32, write: Int32)?
        if request.pseudoTerminal {
            do { stdoutPipe = try Platform.makePseudoTerminal() } catch {
                Platform.close(readyPipe.write)
                throw .systemCallFailed(name: "posix_openpt", code: error.code)
            }
        } else if request.ready.detection == .stdoutLine {
            do { stdoutPipe = try Platform.makePipe() } catch {
                Platform.close(readyPipe.write)
                throw .systemCallFailed(name: "pipe", code: error.code)
            }
        }
        defer { if let stdoutPipe { Platform.close(stdoutPipe.read) } }
        // Ready seen by the launcher: a pipe on which it asks the tracer for the trace before it ends the program.
        var controlPipe: (read: Int32, write: Int32)?
        if request.ready.detection.isSeenByLauncher {
            do { controlPipe = try Platform.makePipe() } catch {
                Platform.close(readyPipe.write)
                if let stdoutPipe { Platform.close(stdoutPipe.write) }
                throw .systemCallFailed(name: "pipe", code: error.code)
            }
        }
        defer { if let controlPipe { Platform.close(controlPipe.write) } }

        let spawned: Platform.Spawned
        do {
            spawned = try Platform.spawn(
                path: path, arguments: [request.executable] + request.arguments,
                environment: environment(for: request), stampName: LaunchContract.Variable.spawnNanoseconds,
                descriptors: [
                    (stdoutPipe?.write ?? stdoutFile, 1), (stderrFile, 2), (readyPipe.write, readyDescriptor),
                ] + (controlPipe.map { [($0.read, controlDescriptor)] } ?? []))
        } catch {
            Platform.close(readyPipe.write)
            if let stdoutPipe { Platform.close(stdoutPipe.write) }
            if let controlPipe { Platform.close(controlPipe.read) }
            throw .spawnFailed(path: path, code: error.code)
        }
        Platform.close(readyPipe.write)
        if let stdoutPipe { Platform.close(stdoutPipe.write) }
        if let controlPipe { Platform.close(controlPipe.read) }

        var watch = Watch(
            request: request, spawned: spawned, readyFD: readyPipe.read,
            stdoutFD: stdoutPipe?.read, controlFD: controlPipe?.write, outputFiles: [stdoutFile, stderrFile])
        let result = try watch.run()
        for file in [stdoutFile, stderrFile] {
            Platform.keepTail(of: file, keep: request.outputLimitBytes) { dropped, size in
                "[launchprof: the first \(dropped) bytes of \(size) were dropped; the last \(request.outputLimitBytes) are kept]\n"
            }
        }
        return result
    }

    /// Creates the launch's `stdout.txt` and `stderr.txt`, new, in its work
    /// directory (made if missing), through a descriptor of the directory: no
    /// link on the way is followed, and a file already there is an error.
    static func createOutputFiles(_ request: LaunchRequest) throws(LaunchError) -> (stdout: Int32, stderr: Int32) {
        var directory = request.workDirectoryDescriptor ?? -1
        if request.workDirectoryDescriptor == nil {
            do {
                try SystemCalls.makeDirectories(request.workDirectory)
                directory = try Platform.openDirectoryNoFollow(request.workDirectory)
            } catch {
                throw Platform.isSymbolicLink(request.workDirectory)
                    ? .linkInTheWay(path: request.workDirectory)
                    : .cannotCreate(path: request.workDirectory, code: error.code)
            }
        }
        defer { if request.workDirectoryDescriptor == nil { Platform.close(directory) } }
        func create(_ name: String) throws(LaunchError) -> Int32 {
            do { return try Platform.createOutputFile(name, in: directory) } catch {
                throw .cannotCreate(
                    path: (request.namedDirectory ?? request.workDirectory) + "/" + name, code: error.code)
            }
        }
        let stdout = try create(LaunchRequest.stdoutFileName)
        do { return (stdout, try create(LaunchRequest.stderrFileName)) } catch {
            Platform.close(stdout)
            throw error
        }
    }

    /// Throws when the ready condition already holds before the launch: readiness
    /// would then measure nothing. A port still held by the previous launch's
    /// process is given a second to close.
    static func checkNotReadyYet(_ ready: ReadyCondition) throws(LaunchError) {
        switch ready {
        case .file(let path):
            if SystemCalls.exists(path) {
                throw .alreadyReady(ready.description, reason: "'\(path)' exists before the launch")
            }
        case .port(let port):
            let deadline = MonotonicClock.nanoseconds + 1_000_000_000
            while Platform.acceptsConnections(port: port) {
                guard MonotonicClock.nanoseconds < deadline else {
                    throw .alreadyReady(
                        ready.description, reason: "something already accepts connections on port \(port)")
                }
                SystemCalls.sleep(nanoseconds: 10_000_000)
            }
        case .exit, .firstFrame, .fullyDrawn, .stdout:
            break
        }
    }

    /// The child's environment: this process's, then `extraEnvironment`, then the
    /// ready descriptor and what the tracer needs to write its trace at ready: the
    /// milestone that writes it, or the control descriptor (the spawn stamp is
    /// added by the spawn itself).
    static func environment(for request: LaunchRequest) -> [String] {
        let reserved = LaunchContract.Variable.reservedByLauncher
        var entries = ProcessEnvironment.entries.filter { entry in
            let name = String(entry.prefix { $0 != "=" })
            return !reserved.contains(name) && request.extraEnvironment[name] == nil
        }
        for (name, value) in request.extraEnvironment.sorted(by: { $0.key < $1.key }) where !reserved.contains(name) {
            entries.append("\(name)=\(value)")
        }
        entries.append("\(LaunchContract.Variable.readyDescriptor)=\(readyDescriptor)")
        if let milestone = request.ready.milestone {
            entries.append("\(LaunchContract.Variable.flushAtMilestone)=\(milestone.id)")
        }
        if request.ready.detection.isSeenByLauncher {
            entries.append("\(LaunchContract.Variable.controlDescriptor)=\(controlDescriptor)")
        }
        return entries
    }
}

/// The watch over one running child: reads the ready pipe (and stdout), probes
/// ports and files, notices the exit, and ends the process group.
private struct Watch {
    let request: LaunchRequest
    let spawned: Platform.Spawned
    let readyFD: Int32
    let stdoutFD: Int32?
    /// The control pipe's write end, when the launcher sees the launch ready itself.
    let controlFD: Int32?
    /// `stdout.txt` and `stderr.txt`, open.
    let outputFiles: [Int32]
    var stdoutFile: Int32 { outputFiles[0] }
    /// When the output files are next looked at for freeing their head.
    var nextOutputLook: UInt64 = 0
    /// How far the head of each output file has been freed (``Platform/freeHead(of:from:keep:)``).
    var freed: [Int]

    var readyLines: [LaunchResult.ReadyLine] = []
    /// The ready line being read: at most ``lineWindow`` bytes of it.
    var readyBuffer: [UInt8] = []
    /// The ready line being read was longer than ``lineWindow``; the rest is dropped.
    var readyLineDropping = false
    /// The stdout line being read, for the pattern: at most twice ``lineWindow``.
    var stdoutLine: [UInt8] = []
    var readyOpen = true
    var stdoutOpen = true
    var readyAt: UInt64?
    /// The tracer said `listening`: it writes its trace when asked on the control pipe.
    var tracerListens = false
    /// The tracer said `flushed`: its trace is written and the program may be ended.
    var traceFlushed = false
    /// For `port:N`: the loopback address that accepted the connection.
    var readyAddress: String?
    var regex: ExtendedRegex?

    /// How much of a line `stdout:REGEX` searches (its last 64 KiB), and how
    /// much of a ready-pipe line is kept (its first 64 KiB).
    static let lineWindow = 65_536
    /// How many ready-pipe lines are kept: the contract has three words, and a
    /// program writing endless lines must not grow the list without end.
    static let readyLinesKept = 256
    /// The most a drain reads before the watch looks at the clock again: a
    /// program that writes faster than it is read cannot hold it past its
    /// timeout, and the pattern searches at most four windows' worth between looks.
    static let drainLimit = 4 * 65_536

    init(
        request: LaunchRequest, spawned: Platform.Spawned, readyFD: Int32, stdoutFD: Int32?, controlFD: Int32?,
        outputFiles: [Int32]
    ) {
        self.request = request
        self.spawned = spawned
        self.readyFD = readyFD
        self.stdoutFD = stdoutFD
        self.controlFD = controlFD
        self.outputFiles = outputFiles
        freed = outputFiles.map { _ in 0 }
        stdoutOpen = stdoutFD != nil
        if case .stdout(let pattern) = request.ready { regex = try? ExtendedRegex(pattern) }
    }

    mutating func run() throws(LaunchError) -> LaunchResult {
        let pid = spawned.pid
        let processFD = Platform.processDescriptor(pid)
        defer { if let processFD { Platform.close(processFD) } }
        let deadline = spawned.nanoseconds.adding(seconds: request.timeoutSeconds)
        var graceDeadline = UInt64.max
        var exitAt: UInt64?
        var stoppedAtReady = false
        var timedOut = false
        var aborted = false
        var flushRequested = false
        let probes = request.ready.detection == .probed

        while true {
            var fds: [Int32] = []
            if readyOpen { fds.append(readyFD) }
            if stdoutOpen, let stdoutFD { fds.append(stdoutFD) }
            if let processFD { fds.append(processFD) }
            if Platform.mustAbortLaunch {
                aborted = true
                break
            }
            let now = MonotonicClock.nanoseconds
            // Before ready the timeout bounds the wait; after it, the grace period.
            let limit = readyAt == nil ? deadline : graceDeadline
            var wait: Int32 =
                limit == .max ? 50 : Int32(clamping: (limit.subtractingClamped(now) + 999_999) / 1_000_000)
            // Wake at least every 50 ms, so a stop signal that came before the poll is seen.
            wait = min(wait, 50)
            if processFD == nil || (probes && readyAt == nil) { wait = min(wait, 1) }
            _ = Platform.waitForInput(fds, milliseconds: wait)
            let exitedNow = Platform.hasExited(pid)
            let seen = MonotonicClock.nanoseconds
            drainReady(at: seen)
            drainStdout(at: seen)
            // A program that writes without end takes no more disk than its limit (and what it wrote since
            // the last look). Looked at every 50 ms at most: the 1 ms probe turns need not pay two fstat each.
            if seen >= nextOutputLook {
                nextOutputLook = seen.addingClamped(50_000_000)
                for (index, file) in outputFiles.enumerated() {
                    freed[index] = Platform.freeHead(of: file, from: freed[index], keep: request.outputLimitBytes)
                }
            }

            if readyAt == nil {
                switch request.ready {
                case .port(let port):
                    if let address = Platform.loopbackAccepting(port: port) {
                        readyAt = MonotonicClock.nanoseconds
                        readyAddress = address
                    }
                case .file(let path): if SystemCalls.exists(path) { readyAt = seen }
                case .exit, .firstFrame, .fullyDrawn, .stdout: break
                }
            }
            if exitedNow {
                exitAt = seen
                break
            }
            if Platform.mustAbortLaunch {
                aborted = true
                break
            }
            if let readyAt, graceDeadline == .max {
                if request.ready.isReportedByProgram {
                    // Let it flush its trace and exit by itself.
                    graceDeadline = readyAt.adding(seconds: request.readyGraceSeconds)
                } else if tracerListens, let controlFD, !flushRequested {
                    // Ask the tracer for its trace, and wait a bounded time for it.
                    flushRequested = true
                    _ = Platform.writeAll(controlFD, ArraySlice(Array((LaunchContract.flushRequest + "\n").utf8)))
                    graceDeadline = MonotonicClock.nanoseconds.adding(seconds: Launcher.flushWaitSeconds)
                } else {
                    stoppedAtReady = true
                    break
                }
            }
            // The tracer wrote its trace at ready (the mark, or the request): the program is ended now.
            if readyAt != nil, traceFlushed {
                stoppedAtReady = true
                break
            }
            let after = MonotonicClock.nanoseconds
            if readyAt == nil, after >= deadline {
                timedOut = true
                break
            }
            if after >= graceDeadline {
                stoppedAtReady = true
                break
            }
        }

        // The program exited by itself: what it left running (the rest of its group, descendants
        // with its spawn stamp) is waited out to the launch's deadline before anything is ended,
        // so children finish their work, their CPU time counts and, under valgrind, they write their counts.
        var children = Platform.DescendantWait()
        if exitAt != nil, !aborted {
            let stamp = "\(LaunchContract.Variable.spawnNanoseconds)=\(LaunchResult.spawnStamp(spawned.nanoseconds))"
            children = Platform.awaitDescendants(group: spawned.pid, stampEntry: stamp, deadline: deadline) {
                drainStdout(at: MonotonicClock.nanoseconds)
                return Platform.mustAbortLaunch
            }
        }

        // End whatever is left of the group (the leader is not reaped yet, so the group id is still ours).
        if exitAt == nil {
            Platform.signalGroup(spawned.pid, Platform.terminateSignal)
            let give = MonotonicClock.nanoseconds + 500_000_000
            while !Platform.hasExited(pid), MonotonicClock.nanoseconds < give {
                _ = Platform.waitForInput(processFD.map { [$0] } ?? [], milliseconds: processFD == nil ? 1 : 10)
            }
        }
        Platform.signalGroup(spawned.pid, Platform.killSignal)
        let status: Platform.ExitStatus
        var cpuTime: CPUTime
        do { (status, cpuTime) = try Platform.reap(pid) } catch { throw .waitFailed(processID: pid, code: error.code) }
        // What the launch left behind in its group, orphaned to us (when we are their subreaper).
        cpuTime = cpuTime + Platform.reapGroup(pid, milliseconds: 100)
        cpuTime = cpuTime + children.cpuTime
        let end = exitAt ?? MonotonicClock.nanoseconds
        drainReady(at: end, final: true)
        // Output read after a timeout or a stop is kept, not searched: the launch has ended unready.
        if timedOut || aborted { regex = nil }
        drainStdout(at: end, final: true)

        let termination: Termination
        if readyAt != nil, !request.ready.isReportedByProgram, !aborted {
            // Ready by stdout, port or file: what the program did after that is not the launch's business.
            termination = .stoppedAtReady
        } else if aborted {
            termination = .interrupted
        } else if timedOut {
            termination = .timedOut
        } else if stoppedAtReady {
            termination = .stoppedAtReady
        } else {
            switch status {
            case .exited(let code): termination = .exited(code: code)
            case .signaled(let signal): termination = .signaled(signal: signal)
            }
        }
        // A flush asked for and never answered: the program was ended at the end of the wait, without its trace.
        let flushUnanswered = flushRequested && !traceFlushed && exitAt == nil && !aborted
        var ready = readyAt
        var fallback = false
        if ready == nil, let exitAt, !timedOut, !aborted {
            switch request.ready.detection {
            case .exit: ready = exitAt
            case .announced:
                ready = exitAt
                fallback = true
            case .probed, .stdoutLine: break
            }
        }
        var result = LaunchResult(
            processID: pid, spawnNanoseconds: spawned.nanoseconds, readyNanoseconds: ready,
            readyIsExitFallback: fallback, exitNanoseconds: end, termination: termination,
            stdoutPath: request.stdoutPath, stderrPath: request.stderrPath, readyLines: readyLines,
            readyAddress: readyAddress,
            cpuTime: cpuTime)
        result.flushUnanswered = flushUnanswered
        return result
    }

    /// Reads the ready pipe (at most ``drainLimit`` bytes a call, 16 times that
    /// when `final`); each complete line is stamped with `now`. A line is kept to
    /// its first ``lineWindow`` bytes, as `stdout:` lines are: the rest, up to its
    /// newline, is read and dropped, so an endless line costs no memory.
    mutating func drainReady(at now: UInt64, final: Bool = false) {
        guard readyOpen else { return }
        var chunk = [UInt8](repeating: 0, count: 4_096)
        var read = 0
        reading: while read < (final ? 16 : 1) * Self.drainLimit {
            switch Platform.read(readyFD, into: &chunk) {
            case .bytes(let count):
                read += count
                takeReady(chunk[0..<count], at: now)
            case .endOfFile:
                readyOpen = false
                break reading
            case .wouldBlock: break reading
            }
        }
        if final || !readyOpen, !readyBuffer.isEmpty || readyLineDropping, readyLines.count < Self.readyLinesKept {
            readyLines.append(.init(text: String(decoding: readyBuffer, as: UTF8.self), nanoseconds: now))
            readyBuffer.removeAll()
            readyLineDropping = false
        }
    }

    /// Adds `bytes` to the ready line being read, ending a line at each newline.
    mutating func takeReady(_ bytes: ArraySlice<UInt8>, at now: UInt64) {
        var rest = bytes
        while let newline = Platform.firstNewline(in: rest) {
            keepReady(rest[..<newline])
            let text = String(decoding: readyBuffer, as: UTF8.self)
            readyBuffer.removeAll(keepingCapacity: true)
            readyLineDropping = false
            // A word of the contract is kept the first time it comes even past the cap: the trace is checked against it.
            let word = LaunchContract.ReadyAnnouncement(line: text)?.word
            if readyLines.count < Self.readyLinesKept
                || word.map({ word in !readyLines.contains { $0.announcement?.word == word } }) == true
            {
                readyLines.append(.init(text: text, nanoseconds: now))
            }
            if readyAt == nil, let wanted = request.ready.readyWord, word == wanted { readyAt = now }
            if word == .listening { tracerListens = true }
            if word == .flushed, readyAt != nil { traceFlushed = true }
            rest = rest[(newline + 1)...]
        }
        keepReady(rest)
    }

    /// Keeps what fits of a ready line in its ``lineWindow``; marks the line cut when some does not.
    mutating func keepReady(_ bytes: ArraySlice<UInt8>) {
        let room = Self.lineWindow - readyBuffer.count
        if bytes.count > room { readyLineDropping = true }
        readyBuffer += bytes.prefix(max(0, room))
    }

    /// Copies what the program wrote to stdout into its file (at most
    /// ``drainLimit`` bytes a call, 16 times that when `final`), matching its lines
    /// against the pattern.
    mutating func drainStdout(at now: UInt64, final: Bool = false) {
        guard stdoutOpen, let stdoutFD else { return }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var read = 0
        reading: while read < (final ? 16 : 1) * Self.drainLimit {
            switch Platform.read(stdoutFD, into: &chunk) {
            case .bytes(let count):
                Platform.writeAll(stdoutFile, chunk[0..<count])
                scan(chunk[0..<count], at: now)
                read += count
            case .endOfFile:
                stdoutOpen = false
                break reading
            case .wouldBlock:
                break reading
            }
        }
        if final || !stdoutOpen, !stdoutLine.isEmpty {
            match(at: now)
            stdoutLine.removeAll()
        }
    }

    /// Adds `bytes` to the line being read, matching each line they end; keeps
    /// no more of a long line than the last 64 KiB the pattern searches.
    mutating func scan(_ bytes: ArraySlice<UInt8>, at now: UInt64) {
        guard readyAt == nil, regex != nil else { return }
        var rest = bytes
        while let newline = Platform.firstNewline(in: rest) {
            stdoutLine += rest[..<newline]
            match(at: now)
            stdoutLine.removeAll(keepingCapacity: true)
            if readyAt != nil { return }
            rest = rest[(newline + 1)...]
        }
        stdoutLine += rest
        if stdoutLine.count > 2 * Self.lineWindow { stdoutLine.removeFirst(stdoutLine.count - Self.lineWindow) }
    }

    mutating func match(at now: UInt64) {
        guard readyAt == nil, let regex else { return }
        if regex.matches(stdoutLine.suffix(Self.lineWindow)) { readyAt = now }
    }
}

extension UInt64 {
    /// This time plus `seconds` (negative counts as 0), saturating at `.max`: an
    /// infinite or astronomically long wait must not trap converting to `UInt64`.
    fileprivate func adding(seconds: Double) -> UInt64 { adding(nanoseconds: seconds * 1e9) }
}
