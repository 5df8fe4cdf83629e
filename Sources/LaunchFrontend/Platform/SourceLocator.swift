import Foundation

/// Finds a span's source file in the checkout, as a path relative to the
/// repository root, from its `#filePath` (where the file was when the app was
/// built) when the trace recorded it, else from its `#fileID` (`Module/File.swift`).
///
/// - A `#filePath` that exists is made relative to the repository holding it:
///   the nearest folder above it with `.git` (else with `Package.swift`).
/// - One that does not (the app was built elsewhere, on another machine or in
///   another checkout) is matched against the current directory's repository:
///   the longest tail of the path (two parts at least) that names a file there.
/// - Otherwise the `#fileID` is mapped: `Sources/<Module>/<File>` when that
///   exists, else the first `<File>` under a folder named `<Module>`, else
///   `Sources/<Module>/<File>` as the conventional guess.
///
/// The current directory's repository is the nearest folder above it holding
/// `.git` (else `Package.swift`).
final class SourceLocator {
    private let root: URL?
    private var cache: [String: String] = [:]
    private var files: [String: [String]]?

    init(from directory: String = FileManager.default.currentDirectoryPath) {
        root = Self.repositoryRoot(above: URL(fileURLWithPath: directory).standardizedFileURL)
    }

    /// The nearest folder from `start` up holding `.git`, else the nearest holding `Package.swift`.
    static func repositoryRoot(above start: URL) -> URL? {
        var url = start
        var package: URL?
        while true {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent(".git").path) { return url }
            if package == nil, FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
            {
                package = url
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return package }
            url = parent
        }
    }

    /// The repository-relative path of the file with this `#fileID` and `#filePath`.
    func path(of fileID: String, filePath: String?) -> String? {
        if let filePath, let found = path(ofFilePath: filePath) { return found }
        return path(of: fileID)
    }

    /// `filePath` relative to its repository, or the longest tail of it that
    /// names a file in the current directory's repository; nil when neither.
    func path(ofFilePath filePath: String) -> String? {
        let key = "path:" + filePath
        if let known = cache[key] { return known }
        let file = URL(fileURLWithPath: filePath).standardizedFileURL
        var result: String?
        if filePath.hasPrefix("/"), FileManager.default.fileExists(atPath: file.path),
            let repository = Self.repositoryRoot(above: file.deletingLastPathComponent())
        {
            result =
                Self.relative(file, to: repository.resolvingSymlinksInPath())
                ?? Self.relative(file, to: repository)
        }
        if result == nil, let root {
            let parts = file.pathComponents.filter { $0 != "/" }
            result = parts.indices.dropLast().lazy.map { parts[$0...].joined(separator: "/") }
                .first { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
        }
        if let result { cache[key] = result }
        return result
    }

    /// `file`'s path below `folder`, or nil when it is not below it.
    private static func relative(_ file: URL, to folder: URL) -> String? {
        let resolved = file.resolvingSymlinksInPath().path
        let base = folder.path
        guard resolved.hasPrefix(base + "/") else { return nil }
        return String(resolved.dropFirst(base.count + 1))
    }

    /// The repository-relative path of `fileID`.
    func path(of fileID: String) -> String? {
        if let known = cache[fileID] { return known }
        let parts = fileID.split(separator: "/").map(String.init)
        guard parts.count == 2 else { return nil }
        let (module, file) = (parts[0], parts[1])
        let conventional = "Sources/\(module)/\(file)"
        var result = conventional
        if let root, !FileManager.default.fileExists(atPath: root.appendingPathComponent(conventional).path) {
            result =
                index(root)[file]?.first { $0.split(separator: "/").dropLast().contains { $0 == module } }
                ?? conventional
        }
        cache[fileID] = result
        return result
    }

    /// Every Swift file under the root by name, skipping build folders (made once).
    private func index(_ root: URL) -> [String: [String]] {
        if let files { return files }
        var found: [String: [String]] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            let name = url.lastPathComponent
            if name.hasPrefix(".build") || name == ".git" || name == "Reports" {
                enumerator?.skipDescendants()
                continue
            }
            guard name.hasSuffix(".swift") else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
            found[name, default: []].append(relative)
        }
        files = found
        return found
    }
}
