import LaunchTracing

/// A directory launchprof made itself and holds open: files and folders are
/// made in it through its descriptor (`openat`, `mkdirat`), never by a path
/// that a link could redirect.
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

    /// `text` with this folder's path replaced by ``finalPath``, where it begins a path.
    public func presented(_ text: String) -> String {
        path == finalPath ? text : text.replacing(path + "/", with: finalPath + "/")
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
        let child = path + "/" + name
        do {
            return OwnedDirectory(
                path: child, descriptor: try Platform.makeDirectory(name, in: descriptor),
                finalPath: finalPath + "/" + name)
        } catch {
            throw .cannotCreate(path: child, code: error.code)
        }
    }
}
