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
/// The new folder is locked (`flock`) for as long as this object lives, and the
/// lock dies with the process, however it ends. Making one first removes every
/// staging folder of the same name that no live session holds locked: what a
/// killed launchprof left behind (a process id would say nothing across PID
/// namespaces, such as containers sharing `Reports/`). Only the folder made here
/// is ever committed: one that a measured program moved away and replaced (with
/// a link, or a folder of its own) is an error naming it, and stays where it is.
///
/// ```swift
/// let runs = try RunsFolder(replacing: "Reports/app.runs")
/// let request = SessionRequest(plan: plan, executable: path, arguments: [], runs: runs.root)
/// // … measure (the records name the runs where commit() puts them), write the report …
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
    /// The device and inode of the folder made, read through its descriptor.
    private let identity: Platform.FileIdentity?
    private var done = false
    private var committed = false

    /// True when the runs are where the report says they are: committed, or a
    /// temporary folder (which stays). False after ``discard()``: a report shown
    /// then must not point at its runs' files.
    public var keepsRuns: Bool { parent == nil || committed }

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
        // Under the output folder's lock: the sweep, and the new folder made and
        // locked in one step, so that no sweep ever finds it unlocked.
        let name = finalName
        let made = try Platform.withLock(on: parentDescriptor) { () throws(LaunchError) in
            Self.removeLeftovers(of: name, in: parent)
            return try Self.makeLockedFolder(beside: name, in: parentDescriptor, path: path)
        }
        stagingName = made.path
        identity = Platform.identity(of: made.made)
        root = OwnedDirectory(path: parent.path + "/" + made.path, descriptor: made.made, finalPath: path)
    }

    /// A new temporary folder, `<TMPDIR>/launchprof-<name>.runs-XXXXXX`, for a
    /// measurement whose report goes to standard output; ``commit()`` leaves it where it is.
    ///
    /// - Throws: ``LaunchError/cannotCreate(path:code:)``.
    public init(temporaryFor name: String) throws(LaunchError) {
        let prefix = "launchprof-" + ReportFileName.safe(name) + ".runs-"
        let path: String
        let descriptor: Int32
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
        identity = nil
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
    ///   folder's place meanwhile; ``LaunchError/notTheFolderMade(path:)`` when the
    ///   folder under the temporary name is no longer the one made here (a
    ///   measured program moved it and left a link or a folder of its own):
    ///   nothing is put in place; ``LaunchError/cannotCreate(path:code:)`` when the
    ///   rename failed. The new folder then stays where it is, under its temporary name.
    public func commit() throws(LaunchError) {
        guard !done, let parent else { return }
        let staging = parent.path + "/" + stagingName
        for _ in 0..<10 {
            try Self.checkReplaceable(finalName, in: parent, path: finalPath)
            guard isTheFolderMade(stagingName) else { throw .notTheFolderMade(path: staging) }
            let exists = Platform.entryKind(finalName, in: parent.descriptor) != nil
            do {
                try Platform.rename(stagingName, to: finalName, in: parent.descriptor, exchange: exists)
                done = true
                committed = true
                if exists { Platform.removeTree(stagingName, in: parent.descriptor) }
                return
            } catch  where error.code == SystemError.alreadyExists || error.code == SystemError.notEmpty {
                continue  // another measurement's folder arrived in between: swap with it
            } catch  where exists && error.code == SystemError.invalidArgument {
                // No exchange here: move the old folder aside, then the new one in.
                do {
                    let aside = try AtomicFile.uniqueName(beside: finalName + ".old") { name throws(SystemError) in
                        try Platform.rename(finalName, to: name, in: parent.descriptor, exchange: false)
                    }
                    try Platform.rename(stagingName, to: finalName, in: parent.descriptor, exchange: false)
                    done = true
                    committed = true
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
        // Only the folder made here: what took its name is left for the next session's sweep.
        if let parent, isTheFolderMade(stagingName) { Platform.removeTree(stagingName, in: parent.descriptor) }
    }

    /// True when `name` in the output folder is the folder made here (the same
    /// device and inode, read through a descriptor that follows no link).
    private func isTheFolderMade(_ name: String) -> Bool {
        guard let parent, let identity else { return false }
        return Platform.directoryIdentity(name, in: parent.descriptor) == identity
    }

    /// Makes the new folder `<finalName>.tmp-<pid>` in `parent` and locks it.
    private static func makeLockedFolder(
        beside finalName: String, in parent: Int32, path: String
    ) throws(LaunchError) -> (path: String, made: Int32) {
        do {
            let made = try AtomicFile.uniqueName(beside: finalName) { name throws(SystemError) in
                try Platform.makeDirectory(name, in: parent)
            }
            _ = Platform.tryLock(made.made)  // new: no one else can hold it yet
            return made
        } catch {
            throw .cannotCreate(path: path + ".tmp-*", code: error.code)
        }
    }

    /// Removes the staging folders of `finalName` (`<name>.runs.tmp-<pid>`, and
    /// `<name>.runs.old.tmp-<pid>` set aside by a commit) that no live session
    /// holds locked, and links by those names. Called under the output folder's lock.
    private static func removeLeftovers(of finalName: String, in parent: OwnedDirectory) {
        for name in Platform.entryNames(in: parent.descriptor) where isStagingName(name, of: finalName) {
            _ = Platform.removeIfUnlocked(name, in: parent.descriptor)
        }
    }

    /// True for `<finalName>.tmp-<digits>[-<digits>]` and `<finalName>.old.tmp-…`.
    static func isStagingName(_ name: String, of finalName: String) -> Bool {
        for prefix in [finalName + ".tmp-", finalName + ".old.tmp-"] where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
            return (1...2).contains(parts.count)
                && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
        }
        return false
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
