import Foundation

/// The built products the end-to-end tests run, and a way to run them.
enum Executables {
    /// The directory `swift build` put the products in (beside the test bundle).
    static let productsDirectory: URL = {
        var candidates: [URL] = [Bundle.main.bundleURL.deletingLastPathComponent(),
                                 URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        var root = URL(fileURLWithPath: #filePath)
        while root.path != "/" && !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        candidates.append(root.appendingPathComponent(".build/debug"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("launchprof").path) }
            ?? candidates[0]
    }()

    static var launchprof: String { productsDirectory.appendingPathComponent("launchprof").path }
    static var fixture: String { productsDirectory.appendingPathComponent("launchprof-fixture").path }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `launchprof` with `arguments` and waits for it.
    static func run(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launchprof)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Starts `launchprof` with `arguments`, its output discarded, and returns at once.
    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launchprof)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until something exists at `url`, for `seconds` at most.
    static func waitUntilExists(_ url: URL, seconds: Double = 20) {
        let deadline = Date().addingTimeInterval(seconds)
        while !FileManager.default.fileExists(atPath: url.path), Date() < deadline { usleep(10_000) }
    }

    /// A new empty directory.
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lp-e2e-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The line of the first line of `file` (relative to the package root) containing `text`.
    static func line(of text: String, in file: String) -> Int? {
        var root = URL(fileURLWithPath: #filePath)
        while root.path != "/" && !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        guard let source = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else { return nil }
        return source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) }.map { $0 + 1 }
    }
}
