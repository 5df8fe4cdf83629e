import LaunchAnalysis

/// One launch to make: the program, its arguments and environment, when it
/// counts as ready, and how long to wait.
///
/// The child inherits this process's environment plus `extraEnvironment`, plus
/// `LAUNCHPROF_READY_FD=3` and `LAUNCHPROF_SPAWN_NS` (set by the launcher, which
/// wins over both). Its stdin is /dev/null; its stdout and stderr go to
/// `stdout.txt` and `stderr.txt` in `workDirectory`, created if missing. Those two
/// files must not exist yet: they are created new (`O_CREAT | O_EXCL |
/// O_NOFOLLOW`), and a file or link already there is an error that names it.
///
/// ```swift
/// let request = LaunchRequest(
///     executable: "sleep", arguments: ["0.1"], ready: .exit,
///     timeoutSeconds: 20, workDirectory: "Reports/run-1")
/// let outcome = try Launcher.launch(request)
/// ```
public struct LaunchRequest: Sendable, Equatable {
    /// A program name, looked up in `PATH` like `execvp` does, or a path (anything with a `/`).
    public var executable: String
    /// The arguments after the program name (`argv[1...]`; `argv[0]` is `executable` as given).
    public var arguments: [String]
    /// Variables added to, or replacing, the inherited environment.
    public var extraEnvironment: [String: String]
    /// When the launch counts as ready.
    public var ready: ReadyCondition
    /// The longest wait for readiness, in seconds from the spawn; then the whole
    /// process group is killed and the launch has timed out. `.infinity` waits forever.
    public var timeoutSeconds: Double
    /// Where this launch's `stdout.txt` and `stderr.txt` go; created if missing.
    /// It must not be a symbolic link.
    public var workDirectory: String
    /// An open descriptor of `workDirectory` (`O_DIRECTORY`), through which the
    /// files are created instead of through its path (`openat`); the caller keeps
    /// it open for the launch. Nil: the path is opened (never through a link).
    public var workDirectoryDescriptor: Int32?
    /// The path that names `workDirectory` in errors: where it will be once its
    /// runs folder is committed (``OwnedDirectory/finalPath``). Nil: `workDirectory`.
    public var namedDirectory: String?
    /// For `.firstFrame` and `.fullyDrawn`: how long after ready the program may
    /// take to flush its trace, write `done` and exit by itself before it is killed.
    public var readyGraceSeconds: Double
    /// When true, the child's stdout is a pseudo-terminal instead of a pipe or a
    /// file, so that a program that buffers its output when it is not a terminal
    /// (C stdio, Python) writes each line at once. What it writes is still kept in
    /// `stdout.txt`, byte for byte (no `\r` added). Its stderr stays a file.
    public var pseudoTerminal: Bool
    /// The most of each of `stdout.txt` and `stderr.txt` kept, in bytes: the
    /// last ones. The program writes straight into the files (no copy through
    /// launchprof, no added latency per write); while it runs, what lies more
    /// than this before the end is freed (a hole punched, where the file system
    /// can), and once it has ended a longer file is cut to its last
    /// `outputLimitBytes`, after a first line that says how much was dropped.
    /// Default ``defaultOutputLimitBytes``.
    public var outputLimitBytes: Int

    /// 16 MiB: far more than a launch has to say, far less than a runaway program writes.
    public static let defaultOutputLimitBytes = 16 << 20

    /// Makes a request; see the properties for each value's meaning.
    public init(
        executable: String,
        arguments: [String] = [],
        extraEnvironment: [String: String] = [:],
        ready: ReadyCondition,
        timeoutSeconds: Double,
        workDirectory: String,
        workDirectoryDescriptor: Int32? = nil,
        namedDirectory: String? = nil,
        readyGraceSeconds: Double = 5,
        pseudoTerminal: Bool = false,
        outputLimitBytes: Int = LaunchRequest.defaultOutputLimitBytes
    ) {
        self.executable = executable
        self.arguments = arguments
        self.extraEnvironment = extraEnvironment
        self.ready = ready
        self.timeoutSeconds = timeoutSeconds
        self.workDirectory = workDirectory
        self.workDirectoryDescriptor = workDirectoryDescriptor
        self.namedDirectory = namedDirectory
        self.readyGraceSeconds = readyGraceSeconds
        self.pseudoTerminal = pseudoTerminal
        self.outputLimitBytes = outputLimitBytes
    }

    /// The name of the file in `workDirectory` that receives the child's stdout.
    public static let stdoutFileName = "stdout.txt"

    /// The name of the file in `workDirectory` that receives the child's stderr.
    public static let stderrFileName = "stderr.txt"

    /// The path of the file that receives the child's stdout.
    public var stdoutPath: String { workDirectory + "/" + Self.stdoutFileName }

    /// The path of the file that receives the child's stderr.
    public var stderrPath: String { workDirectory + "/" + Self.stderrFileName }
}
