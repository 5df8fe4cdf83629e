import Foundation

/// A fresh directory under the system's temporary directory, removed on deinit.
///
/// Suites hold one as a stored property: Swift Testing makes a new suite
/// instance for each test, so every test gets its own directory.
final class Scratch {
    let path: String

    init() {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("launchmeasure-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `text` to `name` in the directory with the given permissions; returns its path.
    @discardableResult
    func file(_ name: String, _ text: String, permissions: Int) throws -> String {
        let file = path + "/" + name
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: file)
        return file
    }

    /// The contents of a file as text ("" when it cannot be read).
    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
