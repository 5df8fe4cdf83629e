import Foundation

/// Finds a span's source file in the checkout from its `#fileID`
/// (`Module/File.swift`), as a path relative to the repository root: the root
/// is the nearest folder above the current one holding `.git` (else
/// `Package.swift`); the file is `Sources/<Module>/<File>` when that exists,
/// else the first `<File>` under a folder named `<Module>`, else
/// `Sources/<Module>/<File>` as the conventional guess.
final class SourceLocator {
    private let root: URL?
    private var cache: [String: String] = [:]
    private var files: [String: [String]]?

    init(from directory: String = FileManager.default.currentDirectoryPath) {
        var url = URL(fileURLWithPath: directory).standardizedFileURL
        var found: URL?
        var package: URL?
        while true {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent(".git").path) { found = url; break }
            if package == nil, FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { package = url }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { break }
            url = parent
        }
        root = found ?? package
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
            result = index(root)[file]?.first { $0.split(separator: "/").dropLast().contains { $0 == module } } ?? conventional
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
            if name.hasPrefix(".build") || name == ".git" || name == "Reports" { enumerator?.skipDescendants(); continue }
            guard name.hasSuffix(".swift") else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
            found[name, default: []].append(relative)
        }
        files = found
        return found
    }
}
