import LaunchTracing

/// A directory launchprof made itself and holds open: files and folders are
/// made in it through its descriptor (`openat`, `mkdirat`), never by a path
/// that a link could redirect.
///
/// It knows two paths: where it is now (``path``, what files are opened by and the
/// launched program is told) and where it will be once its runs folder is committed
/// (``finalPath``, what records and messages name). A path is recorded once, final,
/// so nothing is moved in text afterwards.
///
/// The descriptor is closed when the last reference goes away.
///
/// ```swift
/// let run = try runs.root.makeSubdirectory("run-1")   // <runs>/run-1, new
/// ```
public final class OwnedDirectory: Sendable {
    /// Its absolute path (what the launched program is told, and what reports say).
    public let path: String
    /// Where it will be once its runs folder is committed (``RunsFolder/commit()``):
    /// the path that lines on standard error name. The same as ``path`` for a
    /// folder that is not moved.
    public let finalPath: String
    /// Its open descriptor (`O_DIRECTORY`, close-on-exec).
    let descriptor: Int32

    init(path: String, descriptor: Int32, finalPath: String? = nil) {
        self.path = path
        self.descriptor = descriptor
        self.finalPath = finalPath ?? path
    }

    /// The final path of its entry `name`: what records and messages name.
    public func finalPath(of name: String) -> String { finalPath + "/" + name }

    /// Where the file recorded as `recorded` (a final path in this folder, or
    /// a path outside it) can be read now: before the commit, under ``path``.
    public func currentPath(ofRecorded recorded: String) -> String {
        guard path != finalPath, recorded.hasPrefix(finalPath + "/") else { return recorded }
        return path + recorded.dropFirst(finalPath.count)
    }

    deinit {
        Platform.close(descriptor)
    }

    /// Renames its entry `name` to `newName` through its descriptor (nothing may
    /// be at `newName`); best effort: false when it could not.
    @discardableResult
    func renameEntry(_ name: String, to newName: String) -> Bool {
        do { try Platform.rename(name, to: newName, in: descriptor, exchange: false) } catch { return false }
        return true
    }

    /// Makes the new folder `name` in it (nothing may be there: a link or a
    /// folder by that name is an error) and opens it.
    ///
    /// - Throws: ``LaunchError/cannotCreate(path:code:)`` naming it.
    public func makeSubdirectory(_ name: String) throws(LaunchError) -> OwnedDirectory {
        do {
            return OwnedDirectory(
                path: path + "/" + name, descriptor: try Platform.makeDirectory(name, in: descriptor),
                finalPath: finalPath(of: name))
        } catch {
            throw .cannotCreate(path: finalPath(of: name), code: error.code)
        }
    }
}
