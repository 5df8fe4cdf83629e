import LaunchAnalysis
import LaunchTracing

/// Writes rendered reports into a folder, each atomically (a temporary file
/// renamed over the target), so a reader never sees half a report.
///
/// ```swift
/// let paths = try ReportWriter(directory: "Reports").write(.measurement(report), formats: [.json])
/// ```
public struct ReportWriter: Sendable {
    /// The folder reports are written to.
    public var directory: String

    /// True when `directory` must be a real folder, not a symbolic link: each
    /// file is then written through a descriptor of the folder opened with
    /// `O_NOFOLLOW`, and a link there is an error, never written through (the
    /// committed `baselines/` folder is treated as a runs folder is).
    public var refusesLinkedDirectory: Bool

    /// A writer into `directory`, which must exist; with `refusingLink`, a
    /// `directory` that is a symbolic link is refused (``refusesLinkedDirectory``).
    public init(directory: String, refusingLink: Bool = false) {
        self.directory = directory
        refusesLinkedDirectory = refusingLink
    }

    /// Throws when `directory` itself is a symbolic link (a dangling one
    /// included): launchprof writes only into real folders there.
    ///
    /// - Throws: ``ReportError/cannotWrite(path:reason:)`` naming it.
    public static func refuseLink(at directory: String) throws(ReportError) {
        if AtomicFile.isSymbolicLink(directory) { throw .cannotWrite(path: directory, reason: linkReason) }
    }

    /// Why a linked folder is refused.
    static let linkReason =
        "it is a symbolic link: launchprof writes only into folders it makes, never through a link (remove it)"

    /// Where `format` of `document` goes (``path(of:name:kind:)``).
    public func path(of format: ReportFormat, for document: ReportDocument) -> String? {
        switch document {
        case .measurement(let report): return path(of: format, name: report.name)
        case .comparison(let report): return path(of: format, name: report.name, kind: .comparison)
        }
    }

    /// Where `format` of a report named `name` goes: `<directory>/<name>.<ext>`,
    /// or `<directory>/<name>.comparison.<ext>` for a comparison, the name made
    /// safe for a file (``ReportFileName/safe(_:)``); nil for a format shown on
    /// the terminal. The one place a report's file name is made.
    ///
    /// ```swift
    /// ReportWriter(directory: "Reports").path(of: .html, name: "pr-42", kind: .comparison)
    /// // "Reports/pr-42.comparison.html"
    /// ```
    public func path(of format: ReportFormat, name: String, kind: ReportSummary.Kind = .measurement) -> String? {
        let stem = ReportFileName.safe(name) + (kind == .comparison ? ".comparison" : "")
        return format.fileExtension.map { directory + "/" + stem + "." + $0 }
    }

    /// Renders and writes each file format of `formats` (terminal formats are
    /// skipped) as one set (``StagedReportSet``): every file written first under a
    /// temporary name, then put in place under the output folder's lock, the JSON
    /// report last; returns the paths written. A document not yet identified gets
    /// a new ``ReportDocument/reportID``, carried by every file of the set.
    ///
    /// - Throws: ``ReportError/cannotWrite(path:reason:)`` naming the file that
    ///   could not be written; the old set then stays whole (or the reason says which files are old).
    public func write(_ document: ReportDocument, formats: [ReportFormat], options: RenderOptions = RenderOptions())
        throws(ReportError) -> [String]
    {
        var rendered = RenderedReport(
            document.reportID == nil ? document.identified(as: SessionID.make()) : document, options: options)
        return try write(&rendered, formats: formats)
    }

    /// Writes each file format of `formats` of `report`'s document as one set,
    /// under the output folder's lock (``stage(_:formats:)``, ``StagedReportSet/commit()``);
    /// returns the paths written.
    ///
    /// - Throws: ``ReportError/cannotWrite(path:reason:)`` naming the file that
    ///   could not be written; the old set then stays whole (or the reason says which files are old).
    public func write(_ report: inout RenderedReport, formats: [ReportFormat]) throws(ReportError) -> [String] {
        let staged = try stage(&report, formats: formats)
        do {
            return try AtomicFile.withFolderLock(directory) { try staged.commit() }
        } catch let error as ReportError {
            throw error
        } catch {
            throw .cannotWrite(path: directory, reason: "\(error)")
        }
    }

    /// Renders each file format of `formats` of `report`'s document (terminal
    /// formats are skipped) into a temporary file beside its target, nothing put
    /// in place yet: the set to commit, its JSON report last.
    ///
    /// - Throws: ``ReportError/cannotWrite(path:reason:)`` naming the first file
    ///   that could not be written (a full disk); every file staged before it is
    ///   removed, and nothing in the folder has changed.
    public func stage(_ report: inout RenderedReport, formats: [ReportFormat]) throws(ReportError) -> StagedReportSet {
        let ordered = formats.filter { $0 != .json } + formats.filter { $0 == .json }
        var folder: Int32?
        if refusesLinkedDirectory {
            do { folder = try AtomicFile.openFolder(directory) } catch { throw failure(error, at: directory) }
        }
        var files: [StagedReportSet.File] = []
        for format in ordered {
            guard let path = path(of: format, for: report.document), !files.contains(where: { $0.path == path })
            else { continue }
            let name = folder == nil ? path : String(path.dropFirst(directory.count + 1))
            do {
                if failsStaging?(path) == true { throw SystemError(code: 28) }  // ENOSPC
                let staged: AtomicFile.Staged
                if let stream = report.streamed(format) {
                    staged = try AtomicFile.stage(to: name, in: folder, stream)
                } else {
                    let bytes = try report.bytes(of: format)
                    staged = try AtomicFile.stage(to: name, in: folder) { write in bytes.withUnsafeBytes(write) }
                }
                files.append(StagedReportSet.File(format: format, path: path, staged: staged))
            } catch {
                files.forEach { $0.staged.discard() }
                if let folder { AtomicFile.closeFolder(folder) }
                if let error = error as? ReportError { throw error }
                let reason =
                    (error as? SystemError).map { failure($0, at: path) }
                    ?? .cannotWrite(path: path, reason: "\(error)")
                guard case .cannotWrite(let at, let why) = reason else { throw reason }
                throw .cannotWrite(path: at, reason: why + "; nothing was replaced, the old report set stays whole")
            }
        }
        return StagedReportSet(
            files: files, folder: folder, reportID: report.document.reportID, failsRename: failsRename)
    }

    /// Runs `body` holding the output folder's lock (an exclusive `flock` on
    /// ``directory``, the one a runs folder's commit takes), so that report sets of
    /// one folder are put in place one launchprof at a time.
    public func withFolderLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        try AtomicFile.withFolderLock(directory, body)
    }

    /// A write that fails in the tests: staging the file at a path for which this
    /// returns true fails with `ENOSPC` (a full disk).
    package var failsStaging: (@Sendable (String) -> Bool)?
    /// A write that fails in the tests: putting the file at a path for which this
    /// returns true in place fails with `EIO`.
    package var failsRename: (@Sendable (String) -> Bool)?

    /// The error of a system call that failed writing `path`: the folder named when it is a link there.
    private func failure(_ error: SystemError, at path: String) -> ReportError {
        if refusesLinkedDirectory && AtomicFile.isSymbolicLink(directory) {
            return .cannotWrite(path: directory, reason: Self.linkReason)
        }
        return .cannotWrite(path: path, reason: error.description)
    }

    /// Writes `format` of `report`'s document under another name, `name`
    /// (a baseline's), with the bytes `report` rendered for it; returns the path
    /// written (nil for a terminal format).
    ///
    /// - Throws: ``ReportError/cannotWrite(path:reason:)`` naming the file.
    public func write(_ report: inout RenderedReport, format: ReportFormat, name: String) throws(ReportError) -> String?
    {
        guard let path = path(of: format, name: name) else { return nil }
        try write(report.bytes(of: format), to: path)
        return path
    }

    /// Writes `bytes` to `path`, a file in ``directory``, atomically.
    private func write(_ bytes: [UInt8], to path: String) throws(ReportError) {
        try write(to: path) { write in bytes.withUnsafeBytes(write) }
    }

    /// Writes what `produce` hands its `write`, in order, to `path`, a file in ``directory``, atomically.
    private func write(to path: String, _ produce: (_ write: (UnsafeRawBufferPointer) -> Void) -> Void)
        throws(ReportError)
    {
        do {
            if refusesLinkedDirectory {
                try AtomicFile.write(named: String(path.dropFirst(directory.count + 1)), inFolder: directory, produce)
            } else {
                try AtomicFile.write(to: path, produce)
            }
        } catch  where refusesLinkedDirectory && AtomicFile.isSymbolicLink(directory) {
            throw .cannotWrite(path: directory, reason: Self.linkReason)
        } catch {
            throw .cannotWrite(path: path, reason: error.description)
        }
    }
}
