import LaunchTracing

/// Shell commands run around the launches, as `hyperfine` has them: `setup`
/// once before the first launch, `prepare` before every launch (warm-ups
/// included: clear an app's caches, reset its state), `cleanup` once at the end,
/// also when a launch or a `prepare` failed or a stop signal ended the session
/// (not when `setup` failed). Each runs through `/bin/sh -c` with launchprof's
/// environment and working directory, stdin from /dev/null, and its output
/// (stdout and stderr) kept only for the message when it fails. Its time is
/// never counted: the launch's clock starts after it has ended.
///
/// A command that exits with a code other than 0, or is killed, is an error that
/// names it (``LaunchError/commandFailed(role:command:problem:)``). Processes it
/// leaves running (a server started by `setup`) are left alone: only what a
/// launch leaves is ended.
///
/// ```swift
/// let commands = SessionCommands(prepare: "rm -rf ~/.cache/my-app")
/// ```
public struct SessionCommands: Sendable, Equatable {
    /// Before every launch.
    public var prepare: String?
    /// Once, before the first launch.
    public var setup: String?
    /// Once, at the end.
    public var cleanup: String?

    /// Makes the set; nil leaves a command out.
    public init(prepare: String? = nil, setup: String? = nil, cleanup: String? = nil) {
        self.prepare = prepare
        self.setup = setup
        self.cleanup = cleanup
    }

    /// Which of the three a command is, as its option names it (`--prepare`).
    public enum Role: String, Sendable {
        case prepare = "--prepare", setup = "--setup", cleanup = "--cleanup"
    }

    /// How a run of a command ended short of success.
    package enum Failure: Error {
        /// It failed: the error to report.
        case failed(LaunchError)
        /// A stop signal that ends a launch at once came while it ran; it was ended.
        case interrupted
    }

    /// Runs `command` (in the role `role`) to its end.
    static func run(_ command: String, role: Role) throws(Failure) {
        let output: (read: Int32, write: Int32)
        do { output = try Platform.makePipe() } catch {
            throw .failed(.systemCallFailed(name: "pipe", code: error.code))
        }
        defer { Platform.close(output.read) }
        let spawned: Platform.Spawned
        do {
            spawned = try Platform.spawn(
                path: "/bin/sh", arguments: ["sh", "-c", command], environment: environment, stampName: nil,
                descriptors: [(output.write, 1), (output.write, 2)])
        } catch {
            Platform.close(output.write)
            throw .failed(.spawnFailed(path: "/bin/sh", code: error.code))
        }
        Platform.close(output.write)
        let pid = spawned.pid
        let processFD = Platform.processDescriptor(pid)
        defer { if let processFD { Platform.close(processFD) } }
        let stopsBefore = Platform.stopRequests
        var tail: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        func drain() {
            while case .bytes(let count) = Platform.read(output.read, into: &chunk) {
                tail += chunk[0..<count]
                if tail.count > 8_192 { tail.removeFirst(tail.count - 4_096) }
            }
        }
        var interrupted = false
        // Until it exits (not until its output closes: something it started in the background may hold it).
        while !Platform.hasExited(pid) {
            // A stop signal that ends a launch at once (a second Ctrl-C, SIGTERM, SIGHUP) ends the command;
            // a first Ctrl-C lets it finish (the session then stops before the next launch).
            if Platform.stopRequests > stopsBefore, Platform.mustAbortLaunch {
                interrupted = true
                Platform.signalGroup(pid, Platform.killSignal)
                break
            }
            _ = Platform.waitForInput(
                [output.read] + (processFD.map { [$0] } ?? []), milliseconds: processFD == nil ? 1 : 50)
            drain()
        }
        let status: Platform.ExitStatus
        do { status = try Platform.reap(pid).status } catch {
            throw .failed(.waitFailed(processID: pid, code: error.code))
        }
        drain()
        if interrupted { throw .interrupted }
        let ending: String
        switch status {
        case .exited(0): return
        case .exited(let code): ending = "exited with code \(code)"
        case .signaled(let signal):
            ending = "was killed by signal \(signal)" + (Platform.signalName(signal).map { " (SIG\($0))" } ?? "")
        }
        let last =
            String(decoding: tail, as: UTF8.self).split(whereSeparator: \.isNewline).last.map {
                $0.trimmingWhitespace()
            } ?? ""
        throw .failed(
            .commandFailed(
                role: role.rawValue, command: command, problem: ending + (last.isEmpty ? "" : ": \(last.prefix(200))")))
    }

    /// launchprof's environment, less the variables only a launch may carry.
    static var environment: [String] {
        let reserved = LaunchContract.Variable.reservedByLauncher
        return ProcessEnvironment.entries.filter { !reserved.contains(String($0.prefix { $0 != "=" })) }
    }
}
