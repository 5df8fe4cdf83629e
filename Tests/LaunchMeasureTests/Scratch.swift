import Foundation

/// A fresh directory under the system's temporary directory, removed on deinit.
///
/// Suites hold one as a stored property: Swift Testing makes a new suite
/// instance for each test, so every test gets its own directory.
final class Scratch {
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory() + "/launchmeasure-tests.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(cString: template)
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
