/// How a program is run under valgrind so that what is counted is the program
/// that was timed: the same path, `argv`, working directory and folder around it.
///
/// Valgrind 3.19 gives up on some DWARF 5 debug information (the forms LLVM
/// writes, in Swift binaries built with clang parts: "unhandled dwarf2 abbrev
/// form code 0x25 … Giving up"), and no valgrind option (`--read-var-info=no`,
/// `--read-inline-info=no`) stops it reading it. Such a program is counted
/// through a copy without debug information (`objcopy --strip-debug`, which
/// keeps the function names) mounted over the program's own path in a private
/// mount namespace (`unshare --mount`, with a user namespace mapping the current
/// user to itself when launchprof is not root): the counted process runs at the
/// program's path, beside the program's own folder entries (a virtual
/// environment's `pyvenv.cfg`), with the program's `argv[0]`; only its debug
/// information is gone. Nothing is linked or changed outside the runs folder.
///
/// ```swift
/// let route = CountingRoute.debugInfoHidden(copy: "/runs/base/program/app", unshare: "/usr/bin/unshare", asRoot: false)
/// route.wrapping(["/usr/bin/valgrind", "--tool=callgrind", "/work/app"], program: "/work/app", workingDirectoryVariable: "/work")
/// ```
public enum CountingRoute: Sendable, Equatable {
    /// Valgrind reads the program as it is (no debug information, or debug information it reads).
    case direct
    /// Valgrind cannot read the program's debug information: `copy`, the program without it,
    /// is mounted over the program's path for the counted launch (`unshare` at that path;
    /// `asRoot`: launchprof runs as root and needs no user namespace).
    case debugInfoHidden(copy: String, unshare: String, asRoot: Bool)

    /// The shell words that mount `$0` over `$1`, put `PWD` back as the launch had it
    /// (`$2`: `=value`, or empty when unset; the shell sets it to the working directory
    /// otherwise), then run the rest in the same process (`exec`: the launched
    /// process is valgrind's, as in a direct count).
    static let mountThenRun =
        #"mount --bind "$0" "$1" || exit 125; "#
        + #"if [ -n "$2" ]; then PWD="${2#=}"; export PWD; else unset PWD; fi; shift 2; exec "$@""#

    /// `command` (valgrind and the program's arguments) as this route runs it:
    /// itself, or inside a mount namespace where `program` (its resolved path) is the
    /// copy, with `PWD` as the launch's environment has it (`workingDirectoryVariable`).
    public func wrapping(_ command: [String], program: String, workingDirectoryVariable: String?) -> [String] {
        switch self {
        case .direct:
            return command
        case .debugInfoHidden(let copy, let unshare, let asRoot):
            return Self.namespace(unshare: unshare, asRoot: asRoot)
                + ["/bin/sh", "-c", Self.mountThenRun, copy, program, workingDirectoryVariable.map { "=" + $0 } ?? ""]
                + command
        }
    }

    /// The `unshare` words that give a private mount namespace, as the current user.
    static func namespace(unshare: String, asRoot: Bool) -> [String] {
        [unshare, "--mount", "--propagation", "private"] + (asRoot ? [] : ["--user", "--map-current-user"])
    }
}
