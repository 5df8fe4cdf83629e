import Foundation

/// The products `swift build` made (`launchprof`, `launchprof-fixture`), and ways
/// to run them from tests: shared by the end-to-end and the harness tests.
public enum BuiltProducts {
    /// The package's root: the nearest folder above this file with a Package.swift.
    public static let packageRoot: URL = {
        var root = URL(fileURLWithPath: #filePath)
        while root.path != "/"
            && !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
        {
            root.deleteLastPathComponent()
        }
        return root
    }()

    /// The directory the products are in: the first of the test bundle's, the running
    /// executable's and `.build/debug` that holds `launchprof-fixture` or `launchprof`
    /// (a test target may depend on only one of them).
    public static let directory: URL = {
        let candidates: [URL] = [
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            packageRoot.appendingPathComponent(".build/debug"),
        ]
        return candidates.first { candidate in
            ["launchprof-fixture", "launchprof"].contains {
                FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent($0).path)
            }
        } ?? candidates[0]
    }()

    /// True when the products and these tests were built with ThreadSanitizer
    /// (`swift build --sanitize=thread`): its runtime is linked in.
    public static let areThreadSanitized = dlsym(nil, "__tsan_init") != nil

    /// The `launchprof` binary.
    public static var launchprof: String { directory.appendingPathComponent("launchprof").path }
    /// The `launchprof-fixture` binary (small instrumented programs, and the sample app).
    public static var fixture: String { directory.appendingPathComponent("launchprof-fixture").path }

    /// The `launchprof-defects` binary (the advisor's defect suite app).
    public static var defects: String { directory.appendingPathComponent("launchprof-defects").path }

    /// How a run of a product ended.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// True when it was still running after the time limit and was stopped.
        public var timedOut: Bool
    }

    /// Runs `executable` (`launchprof` unless told) with `arguments` (and
    /// `NO_COLOR=1`, plus `environment`) and waits for it, reading both pipes as it
    /// runs so a full pipe cannot block it; stops it (SIGTERM) if it runs longer
    /// than `timeoutSeconds`.
    public static func run(
        _ arguments: [String], executable: String = BuiltProducts.launchprof, environment: [String: String] = [:],
        in directory: URL? = nil, timeoutSeconds: Double = 300
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let outData = Collected()
        let errData = Collected()
        let readers = DispatchGroup()
        for (pipe, data) in [(out, outData), (err, errData)] {
            DispatchQueue.global().async(group: readers) { data.set(pipe.fileHandleForReading.readDataToEndOfFile()) }
        }
        var timedOut = false
        if exited.wait(timeout: .now() + timeoutSeconds) == .timedOut {
            timedOut = true
            process.terminate()
            exited.wait()
        }
        readers.wait()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData.get(), as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self), timedOut: timedOut)
    }

    /// Starts `launchprof` with `arguments`, its output discarded, and returns at once.
    public static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launchprof)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until something exists at `url`, for `seconds` at most; true when it does.
    ///
    /// ```swift
    /// try #require(BuiltProducts.waitUntilExists(marker), "the program never started")
    /// ```
    public static func waitUntilExists(_ url: URL, seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !FileManager.default.fileExists(atPath: url.path), Date() < deadline { usleep(10_000) }
        return FileManager.default.fileExists(atPath: url.path)
    }

    /// A new empty directory that nothing removes (see ``ScratchDirectory`` for one that is).
    public static func temporaryDirectory() -> URL { ScratchDirectory.makeDirectory("lp-test") }

    /// The number of the first line of `file` (relative to the package root) containing `text`.
    public static func line(of text: String, in file: String) -> Int? {
        guard let source = try? String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8) else {
            return nil
        }
        return source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) }.map {
            $0 + 1
        }
    }
}

/// Bytes one reader thread fills and the test reads after it finished.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
