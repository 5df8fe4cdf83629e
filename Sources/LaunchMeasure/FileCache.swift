/// The operating system's file cache, dropped before each cold launch.
///
/// On Linux: `sync`, then `3` written to `/proc/sys/vm/drop_caches` (page cache,
/// dentries and inodes). Only root may, and not inside most containers.
///
/// ```swift
/// try FileCache.dropAll()   // before a cold launch
/// ```
public enum FileCache {
    /// The kernel file that drops the cache.
    public static let controlPath = "/proc/sys/vm/drop_caches"

    /// Writes dirty pages to disk and drops every clean cached page.
    ///
    /// - Throws: ``LaunchError/coldModeNeedsRoot(path:code:)`` without the privilege,
    ///   ``LaunchError/cannotDropCaches(path:code:)`` otherwise.
    public static func dropAll() throws(LaunchError) {
        try drop(through: controlPath)
    }

    /// ``dropAll()`` through `path` instead of the kernel's file: lets tests reach
    /// its refusals without dropping the machine's cache.
    static func drop(through path: String) throws(LaunchError) {
        Platform.syncFileSystems()
        do {
            try Platform.writeExistingFile(path, "3\n")
        } catch {
            throw error.isPermissionProblem
                ? .coldModeNeedsRoot(path: path, code: error.code)
                : .cannotDropCaches(path: path, code: error.code)
        }
    }
}
