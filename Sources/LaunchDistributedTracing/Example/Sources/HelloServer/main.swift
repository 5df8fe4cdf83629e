import Foundation
import Hummingbird
import LaunchDistributedTracing
import Tracing

// The server's tracer: LaunchProf's bridge (a server with a tracer of its own passes
// it: `LaunchProfTracer(forwardingTo: otherTracer)`).
InstrumentationSystem.bootstrap(LaunchProfTracer())

/// Reads the configuration: here, this program's own file, as a stand-in for a large one.
func loadConfig() async throws -> Int {
    try await withSpan("LoadConfig") { _ in
        FileManager.default.contents(atPath: CommandLine.arguments[0])?.count ?? 0
    }
}

/// Opens the connection pool: here, 20 ms of waiting, as a database handshake would take.
func connectDatabase() async throws {
    try await withSpan("ConnectDatabase") { _ in
        try await Task.sleep(for: .milliseconds(20))
    }
}

let configBytes = try await loadConfig()
try await connectDatabase()

let router = Router()
router.get("/") { _, _ in "Hello (\(configBytes) bytes of configuration)\n" }
let port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "") ?? 8080
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
