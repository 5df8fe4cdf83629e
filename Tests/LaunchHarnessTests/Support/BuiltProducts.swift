import Foundation

/// The built `launchprof` binary, and a way to run it with a time limit.
enum BuiltProducts {
    /// The directory `swift build` put the products in (beside the test bundle).
    static let directory: URL = {
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

    static var launchprof: String { directory.appendingPathComponent("launchprof").path }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// True when the process was still running after the time limit and was killed.
        var timedOut: Bool
    }

    /// Runs `launchprof` with `arguments`; kills it if it runs longer than `timeoutSeconds`.
    static func run(_ arguments: [String], environment: [String: String], timeoutSeconds: Double) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launchprof)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Read both pipes while the process runs, so a full pipe cannot block it.
        let outData = Locked(Data()), errData = Locked(Data())
        let readers = DispatchGroup()
        for (pipe, data) in [(out, outData), (err, errData)] {
            DispatchQueue.global().async(group: readers) {
                data.value = pipe.fileHandleForReading.readDataToEndOfFile()
            }
        }
        var timedOut = false
        if exited.wait(timeout: .now() + timeoutSeconds) == .timedOut {
            timedOut = true
            process.terminate()
            exited.wait()
        }
        readers.wait()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData.value, as: UTF8.self),
            stderr: String(decoding: errData.value, as: UTF8.self), timedOut: timedOut)
    }
}
