import Foundation

/// A fresh, empty directory under the system's temporary directory, removed with
/// everything in it when the last reference goes away.
///
/// Hold one for as long as its files are used: a suite's stored property gives
/// each test its own directory (Swift Testing makes a new suite instance per
/// test); a local one may be released after its last use, so keep it alive with
/// `withExtendedLifetime` when only paths taken from it are used later.
///
/// ```swift
/// struct LauncherTests {
///     let scratch = ScratchDirectory("launcher")
///
///     @Test func writesItsOutput() throws {
///         let script = try scratch.write("#!/bin/sh\necho hi\n", to: "hi.sh", permissions: 0o755)
///         // … run `script` with its work directory at scratch.file("run") …
///         #expect(ScratchDirectory.read(scratch.file("run/stdout.txt")) == "hi\n")
///     }
/// }
/// ```
public final class ScratchDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// The directory's path.
    public var path: String { url.path }

    /// Makes a new empty directory named `<prefix>-<UUID>`.
    public init(_ prefix: String = "launchprof-test") {
        url = Self.makeDirectory(prefix)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` (which may contain `/`) inside the directory; nothing is created.
    public func file(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `text` to `name` inside the directory with `permissions`; returns its path.
    @discardableResult
    public func write(_ text: String, to name: String, permissions: Int = 0o644) throws -> String {
        let path = file(name)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
        return path
    }

    /// The contents of the file at `path` as UTF-8 text ("" when it cannot be read).
    public static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// Makes a new empty directory named `<prefix>-<UUID>` that nothing removes.
    ///
    /// For callers that want only a URL (`BuiltProducts.temporaryDirectory()`,
    /// the harness tests' `System.temporaryDirectory(_:)`); prefer an instance,
    /// which cleans up after itself.
    public static func makeDirectory(_ prefix: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot make a scratch directory at \(url.path): \(error)")
        }
        return url
    }
}
