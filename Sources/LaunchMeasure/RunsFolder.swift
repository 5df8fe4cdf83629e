import LaunchAnalysis
import LaunchTracing

/// Where one measurement keeps its launches' files (`run-N/`, `warmup-N/`, or a
/// comparison's `base/` and `head/`): a new folder of its own, put in place of the
/// old `<name>.runs/` only once its report is written, so that a report and its
/// runs always belong together and no run of an earlier measurement survives.
///
/// The new folder is made beside the old one (`<name>.runs.tmp-<pid>`, so that a
/// rename can move it) and used through its descriptor. ``commit()`` swaps it in
/// with one atomic rename (`renameat2` with `RENAME_EXCHANGE`; two renames where the
/// file system has no exchange) and then removes the old folder without following
/// any link in it. A `<name>.runs` that is a symbolic link is an error, found
/// before anything is launched: launchprof never writes through a link, and does not
/// replace one it did not make. ``discard()`` removes the new folder instead.
///
/// ```swift
/// let runs = try RunsFolder(replacing: "Reports/app.runs")
/// let request = MeasureRequest(plan: plan, executable: path, arguments: [], runs: runs.root)
/// // … measure, relocate the runs' paths, write the report …
/// try runs.commit()
/// ```
public final class RunsFolder {
    /// The folder the launches write into now (absolute).
    public let root: OwnedDirectory
    /// Where the runs end up, as given (`Reports/app.runs`); the same as
    /// `root.path` for a temporary folder.
    public let finalPath: String
    /// The folder holding both, open; nil for a temporary folder (nothing to swap).
    private let parent: OwnedDirectory?
    private let finalName: String
    private let stagingName: String
    private var done = false

    /// A new folder that will replace `path` (`<output>/<name>.runs`).
    ///
    /// - Throws: ``LaunchError/linkInTheWay(path:)`` when `path` is a symbolic
    ///   link, ``LaunchError/cannotCreate(path:code:)`` when it is not a folder or
    ///   the new one cannot be made.
    public init(replacing path: String) throws(LaunchError) {
        let slash = path.lastIndex(of: "/")
        let parentPath = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        finalName = slash.map { String(path[path.index(after: $0)...]) } ?? path
        finalPath = path
        let parentDescriptor: Int32
        do { parentDescriptor = try Platform.openDirectory(parentPath) } catch {
            throw .cannotCreate(path: path, code: error.code)
        }
        let parent = OwnedDirectory(path: Self.absolute(parentPath), descriptor: parentDescriptor)
        self.parent = parent
        try Self.checkReplaceable(finalName, in: parent, path: path)
        let made: (path: String, made: Int32)
        do {
            made = try AtomicFile.uniqueName(beside: finalName) { name throws(SystemError) in
                try Platform.makeDirectory(name, in: parentDescriptor)
            }
        } catch {
            throw .cannotCreate(path: path + ".tmp-*", code: error.code)
        }
        stagingName = made.path
        root = OwnedDirectory(path: parent.path + "/" + made.path, descriptor: made.made)
    }

    /// A new temporary folder, `<TMPDIR>/launchprof-<name>.runs-XXXXXX`, for a
    /// measurement whose report goes to standard output; ``commit()`` leaves it where it is.
    ///
    /// - Throws: ``LaunchError/cannotCreate(path:code:)``.
    public init(temporaryFor name: String) throws(LaunchError) {
        let prefix = "launchprof-" + ReportFileName.safe(name) + ".runs-"
        let path: String, descriptor: Int32
        do {
            path = Self.absolute(try Platform.makeTemporaryDirectory(prefix: prefix))
            descriptor = try Platform.openDirectoryNoFollow(path)
        } catch {
            throw .cannotCreate(path: prefix + "XXXXXX", code: error.code)
        }
        root = OwnedDirectory(path: path, descriptor: descriptor)
        finalPath = path
        parent = nil
        finalName = ""
        stagingName = ""
    }

    /// The runs of `collected` with their files' paths (and the problems that
    /// name them) where ``commit()`` puts them.
    public func relocated(_ collected: CollectedLaunches) -> CollectedLaunches {
        guard root.path != finalPath else { return collected }
        var moved = collected
        let from = root.path + "/", to = finalPath + "/"
        func move(_ path: String?) -> String? {
            guard let path, path.hasPrefix(from) else { return path }
            return to + path.dropFirst(from.count)
        }
        for index in moved.runs.indices {
            moved.runs[index].stdoutPath = move(moved.runs[index].stdoutPath)
            moved.runs[index].stderrPath = move(moved.runs[index].stderrPath)
            moved.runs[index].tracePath = move(moved.runs[index].tracePath)
            moved.runs[index].problem = moved.runs[index].problem.map { $0.replacing(from, with: to) }
        }
        return moved
    }

    /// Runs `body` (which writes the report) and ``commit()`` while holding a lock
    /// on the output folder, so that another launchprof putting a report of the
    /// same name in place at the same moment cannot pair its report with these runs.
    public func withOutputLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard let parent else { return try body() }
        return try Platform.withLock(on: parent.descriptor, body)
    }

    /// Puts the new folder in place of the old one, which is then removed.
    ///
    /// - Throws: ``LaunchError/linkInTheWay(path:)`` when a link took the old
    ///   folder's place meanwhile; ``LaunchError/cannotCreate(path:code:)`` when the
    ///   rename failed. The new folder then stays where it is, under its temporary name.
    public func commit() throws(LaunchError) {
        guard !done, let parent else { return }
        for _ in 0..<10 {
            try Self.checkReplaceable(finalName, in: parent, path: finalPath)
            let exists = Platform.entryKind(finalName, in: parent.descriptor) != nil
            do {
                try Platform.rename(stagingName, to: finalName, in: parent.descriptor, exchange: exists)
                done = true
                if exists { Platform.removeTree(stagingName, in: parent.descriptor) }
                return
            } catch where error.code == SystemError.alreadyExists || error.code == SystemError.notEmpty {
                continue  // another measurement's folder arrived in between: swap with it
            } catch where exists && error.code == SystemError.invalidArgument {
                // No exchange here: move the old folder aside, then the new one in.
                do {
                    let aside = try AtomicFile.uniqueName(beside: finalName + ".old") { name throws(SystemError) in
                        try Platform.rename(finalName, to: name, in: parent.descriptor, exchange: false)
                    }
                    try Platform.rename(stagingName, to: finalName, in: parent.descriptor, exchange: false)
                    done = true
                    Platform.removeTree(aside.path, in: parent.descriptor)
                    return
                } catch {
                    throw .cannotCreate(path: finalPath, code: error.code)
                }
            } catch {
                throw .cannotCreate(path: finalPath, code: error.code)
            }
        }
        throw .cannotCreate(path: finalPath, code: SystemError.alreadyExists)
    }

    /// Removes the new folder and everything in it (the measurement's report was
    /// not written); the old one stays. Nothing for a temporary folder once committed.
    public func discard() {
        guard !done else { return }
        done = true
        if let parent { Platform.removeTree(stagingName, in: parent.descriptor) }
    }

    /// Throws unless `name` in `parent` is nothing yet or a real folder.
    private static func checkReplaceable(_ name: String, in parent: OwnedDirectory, path: String) throws(LaunchError) {
        switch Platform.entryKind(name, in: parent.descriptor) {
        case nil, .directory?: return
        case .symbolicLink?: throw .linkInTheWay(path: path)
        case .other?: throw .cannotCreate(path: path, code: SystemError.notADirectory)
        }
    }

    /// `path` made absolute against the current directory.
    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let current = Platform.currentDirectory ?? "."
        return path == "." ? current : current + "/" + path
    }
}
