import LaunchTracing

/// Why a program could not be launched or measured as asked.
///
/// Every case carries the offending value; `description` is a short, lowercase,
/// one-line message that names it, ready for `launchprof: <message>` on stderr.
/// Cases that come from a failed system call carry its `errno` value (`code`).
///
/// ```swift
/// do {
///     _ = try Launcher.resolve("frobnicate")
/// } catch {
///     print(error)  // no such program: 'frobnicate' (not found in PATH)
/// }
/// ```
public enum LaunchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing by that name: a path that does not exist, or a name not found in
    /// any `PATH` directory (`searchedPATH`). An empty name is reported this way too.
    case programNotFound(String, searchedPATH: Bool)
    /// The file exists but this user may not execute it (the C error is `EACCES`).
    case notExecutable(path: String)
    /// The path names a directory (`isDirectory`) or a device, not a program.
    case notAProgram(path: String, isDirectory: Bool)
    /// The ready condition already held before the launch (a `file:` that exists,
    /// a `port:` something else listens on), so readiness would measure nothing.
    case alreadyReady(String, reason: String)
    /// A launch setting out of range, such as a negative or NaN timeout.
    case badSetting(name: String, value: Double, expected: String)
    /// An environment variable name that cannot be passed to a child (empty, or containing `=`).
    case badEnvironmentName(String)
    /// The launch's output directory or its stdout/stderr file could not be created
    /// (`EEXIST`: something, a link perhaps, is already there; it is never written through).
    case cannotCreate(path: String, code: Int32)
    /// A symbolic link where launchprof makes a folder or file of its own (a
    /// runs folder, a launch's folder): it writes only into what it made, never through a link.
    case linkInTheWay(path: String)
    /// The runs folder launchprof made is no longer at `path` (its temporary
    /// name): something moved it and put a link or another folder there. It is
    /// not put in place of the old runs; the report is kept.
    case notTheFolderMade(path: String)
    /// A system call needed to launch failed (for example `pipe` with `EMFILE`).
    case systemCallFailed(name: String, code: Int32)
    /// The program could not be started: `execve` refused it (for example
    /// `ENOEXEC`, not a valid executable), or the process could not be made.
    case spawnFailed(path: String, code: Int32)
    /// The child could not be reaped (`waitpid` failed; for example `ECHILD`
    /// when SIGCHLD is ignored and the kernel reaped it already).
    case waitFailed(processID: Int32, code: Int32)
    /// A `--prepare`, `--setup` or `--cleanup` command (`role`) failed: it exited
    /// with a code other than 0 or was killed (`problem` says which, with the
    /// last line it wrote).
    case commandFailed(role: String, command: String, problem: String)
    /// Cold mode could not drop the file cache for lack of privilege
    /// (`EACCES`, `EPERM`, or `EROFS` for a read-only `/proc/sys`).
    case coldModeNeedsRoot(path: String, code: Int32)
    /// Dropping the file cache failed for another reason (for example no `/proc`).
    case cannotDropCaches(path: String, code: Int32)
    /// A tool a measurement needs is not installed; `hint` says how to get it.
    case toolMissing(tool: String, hint: String)
    /// Callgrind wrote no readable count for a launch (`path`): `reason` says why.
    case instructionCountMissing(path: String, reason: String)
    /// Valgrind cannot count `program` as the program that was timed: `reason` says
    /// what it failed on (with its version) and what to do.
    case cannotCount(program: String, reason: String)
    /// A counted launch did not behave as the timed ones did (`reason`: its exit
    /// status or its stdout), so its count is not the timed program's.
    case countedLaunchDiffers(launch: String, reason: String)

    /// A short, lowercase, one-line message naming the offending value.
    public var description: String {
        func reason(_ code: Int32) -> String { SystemError(code: code).description }
        switch self {
        case .programNotFound(let name, _) where name.isEmpty:
            return "no program given"
        case .programNotFound(let name, let searchedPATH):
            return "no such program: '\(name)'" + (searchedPATH ? " (not found in PATH)" : "")
        case .notExecutable(let path):
            return "'\(path)' is not executable"
        case .notAProgram(let path, let isDirectory):
            return isDirectory
                ? "'\(path)' is a directory, not a program" : "'\(path)' is not a program (not a regular file)"
        case .alreadyReady(let condition, let reason):
            return "ready condition '\(condition)' holds before the launch: \(reason)"
        case .badSetting(let name, let value, let expected):
            return "bad \(name) \(value): expected \(expected)"
        case .badEnvironmentName(let name):
            return "bad environment variable name '\(name)': it must be non-empty and contain no '='"
        case .cannotCreate(let path, let code) where code == SystemError.alreadyExists:
            return
                "cannot create '\(path)': something is already there (launchprof creates its files new, never through a link)"
        case .cannotCreate(let path, let code):
            return "cannot create '\(path)': \(reason(code))"
        case .linkInTheWay(let path):
            return
                "'\(path)' is a symbolic link: launchprof writes only into folders it makes, never through a link (remove it)"
        case .notTheFolderMade(let path):
            return
                "'\(path)' is no longer the runs folder launchprof made (something moved it and left a link or a folder "
                + "of its own there): the runs were not put in place; the report is kept"
        case .systemCallFailed(let name, let code):
            return "\(name) failed: \(reason(code))"
        case .spawnFailed(let path, let code):
            return "cannot start '\(path)': \(reason(code))"
        case .waitFailed(let processID, let code):
            return "lost track of process \(processID): \(reason(code))"
        case .commandFailed(let role, let command, let problem):
            return "\(role) command '\(command)' failed: \(problem)"
        case .coldModeNeedsRoot(let path, let code):
            return "cold mode needs root and a writable '\(path)' (\(reason(code)))"
        case .cannotDropCaches(let path, let code):
            return "cannot drop the file cache through '\(path)': \(reason(code))"
        case .toolMissing(_, let hint):
            return hint
        case .instructionCountMissing(let path, let reason):
            return "no instruction count in '\(path)': \(reason)"
        case .cannotCount(let program, let reason):
            return "cannot count '\(program)': \(reason)"
        case .countedLaunchDiffers(let launch, let reason):
            return "\(launch) is not the program that was timed: \(reason)"
        }
    }
}
