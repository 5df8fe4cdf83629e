import LaunchTracing

extension Launcher {
    /// The absolute path of the program `executable` names, checked to be executable.
    ///
    /// A name with a `/` is a path (relative ones are taken from the current
    /// directory); any other name is looked up in the directories of `PATH` in
    /// order, like `execvp` (an empty `PATH` entry means the current directory;
    /// with `PATH` unset, `/usr/local/bin:/usr/bin:/bin`). Call it before any
    /// launch so that a typo fails at once, not after warm-up runs.
    ///
    /// - Throws: ``LaunchError/programNotFound(_:searchedPATH:)``,
    ///   ``LaunchError/notExecutable(path:)`` (a match without execute
    ///   permission, when no later `PATH` entry has an executable one), or
    ///   ``LaunchError/notAProgram(path:isDirectory:)``.
    ///
    /// ```swift
    /// try Launcher.resolve("sleep")   // "/usr/bin/sleep"
    /// try Launcher.resolve("./app")   // "/home/me/project/app"
    /// ```
    public static func resolve(_ executable: String) throws(LaunchError) -> String {
        guard !executable.isEmpty else { throw .programNotFound(executable, searchedPATH: false) }
        if executable.contains("/") {
            var relative = Substring(executable)
            while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
            let path = executable.hasPrefix("/") ? executable : (Platform.currentDirectory ?? ".") + "/" + relative
            try check(path, as: executable)
            return path
        }
        let searchPath = ProcessEnvironment.value("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        var firstProblem: LaunchError?
        for directory in searchPath.split(separator: ":", omittingEmptySubsequences: false) {
            let base = directory.isEmpty ? (Platform.currentDirectory ?? ".") : String(directory)
            let candidate = (base.hasSuffix("/") ? base : base + "/") + executable
            guard Platform.fileKind(candidate) != nil else { continue }
            do {
                try check(candidate, as: candidate)
                return candidate.hasPrefix("/") ? candidate : (Platform.currentDirectory ?? ".") + "/" + candidate
            } catch {
                firstProblem = firstProblem ?? error
            }
        }
        throw firstProblem ?? .programNotFound(executable, searchedPATH: true)
    }

    /// Throws unless `path` is a regular file this process may execute; errors name `shown`.
    private static func check(_ path: String, as shown: String) throws(LaunchError) {
        switch Platform.fileKind(path) {
        case nil: throw .programNotFound(shown, searchedPATH: false)
        case .directory: throw .notAProgram(path: shown, isDirectory: true)
        case .other: throw .notAProgram(path: shown, isDirectory: false)
        case .regular: break
        }
        guard Platform.isExecutable(path) else { throw .notExecutable(path: shown) }
    }
}
