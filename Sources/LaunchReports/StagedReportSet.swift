import LaunchAnalysis
import LaunchTracing

/// Every file format of one report, written under temporary names beside
/// their targets and not yet in place (``ReportWriter/stage(_:formats:)``):
/// ``commit()`` renames them over their targets, the JSON report last (the
/// commit point), ``discard()`` removes them. Call exactly one of the two.
///
/// A set is put in place whole or not at all: a file that could not be
/// written (a full disk) fails the staging before anything is renamed; a
/// target that is not a regular file (a folder in the way) fails the commit
/// before anything is renamed; a rename that fails part-way puts back the
/// files already replaced. Only when putting back fails too is the set mixed,
/// and the error names the files that are old: each format carries the set's
/// ``ReportDocument/reportID``, so a stale one is told apart by its id.
///
/// ```swift
/// let staged = try writer.stage(&rendered, formats: [.json, .markdown])
/// let written = try AtomicFile.withFolderLock(writer.directory) { try staged.commit() }
/// ```
public struct StagedReportSet {
    /// One staged file.
    struct File {
        var format: ReportFormat
        var path: String
        var staged: AtomicFile.Staged
    }

    /// The staged files, in the order they are committed (the JSON report last).
    let files: [File]
    /// The open output folder the names are relative to (a writer that refuses a linked folder); closed at the end.
    let folder: Int32?
    /// The set's id, carried by every file.
    public let reportID: String?
    /// A rename the tests make fail (by the target's path), to prove a failed commit puts everything back.
    let failsRename: (@Sendable (String) -> Bool)?

    /// The paths the set is written to, the JSON report's first (as they are shown).
    public var paths: [String] {
        files.filter { $0.format == .json }.map(\.path) + files.filter { $0.format != .json }.map(\.path)
    }

    /// Puts every file in place, the JSON report last; returns the paths written.
    ///
    /// - Throws: ``ReportError/cannotWrite(path:reason:)`` naming the file that
    ///   could not be put in place and, in its reason, whether the old set was
    ///   kept whole (it is, unless putting back failed too: then which files are old).
    public func commit() throws(ReportError) -> [String] {
        defer { closeFolder() }
        // Nothing is renamed while a target cannot be replaced by a file.
        for file in files where !AtomicFile.isAbsentOrRegularFile(file.staged.target, in: folder) {
            files.forEach { $0.staged.discard() }
            throw .cannotWrite(
                path: file.path,
                reason:
                    "something other than a file is in the way; nothing was replaced, the old report set stays whole")
        }
        var done: [(file: File, aside: String?)] = []
        for (index, file) in files.enumerated() {
            let aside = AtomicFile.keepAside(file.staged.target, in: folder)
            do {
                if failsRename?(file.path) == true { throw SystemError(code: 5) }  // EIO
                try file.staged.commit()
                done.append((file, aside))
            } catch {
                if let aside { AtomicFile.remove(aside, in: folder) }
                file.staged.discard()
                files[(index + 1)...].forEach { $0.staged.discard() }
                let notPutBack = done.reversed().filter {
                    !AtomicFile.putBack($0.aside, as: $0.file.staged.target, in: folder)
                }
                throw .cannotWrite(
                    path: file.path, reason: Self.failure("\(error)", mixed: notPutBack.map(\.file.path), id: reportID))
            }
        }
        for (_, aside) in done { if let aside { AtomicFile.remove(aside, in: folder) } }
        return paths
    }

    /// Removes every staged file; nothing in the output folder changes.
    public func discard() {
        files.forEach { $0.staged.discard() }
        closeFolder()
    }

    /// Why a commit failed, in one line: the system's reason, then either that the
    /// old set stays whole or which files are new (`mixed`) and so which are old.
    package static func failure(_ error: String, mixed: [String], id: String?) -> String {
        guard !mixed.isEmpty else { return "\(error); nothing was replaced, the old report set stays whole" }
        return "\(error); the report set is mixed: only " + mixed.joined(separator: ", ")
            + " are new" + (id.map { " (reportID \($0))" } ?? "") + ", the others are old"
    }

    private func closeFolder() {
        if let folder { AtomicFile.closeFolder(folder) }
    }
}
