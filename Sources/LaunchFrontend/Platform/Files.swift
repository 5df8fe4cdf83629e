// The files the command looks at, and the output directory it prepares.

import LaunchTracing
import _LaunchSystem

/// The files the command looks at, and the output directory it prepares
/// (reports are written with `AtomicFile`).
enum Files {
    /// Creates `path` and its parents if needed and proves it writable; returns the problem, or nil.
    static func prepareWritableDirectory(_ path: String) -> String? {
        if SystemCalls.exists(path) {
            if !SystemCalls.isDirectory(path) { return "it is a file, not a directory" }
        } else {
            do { try SystemCalls.makeDirectories(path) } catch { return error.description }
        }
        do { try AtomicFile.probeWritable(directory: path) } catch { return error.description }
        return nil
    }

    /// Removes the file at `path` if it is a regular file (``SystemCalls/removeRegularFile(_:)``);
    /// returns the problem, or nil when it was removed or was not there.
    static func removeRegularFile(_ path: String) -> String? {
        do { try SystemCalls.removeRegularFile(path) } catch { return error.description }
        return nil
    }
}
