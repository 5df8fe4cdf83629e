import Dispatch
import Foundation
import Hummingbird
import LaunchDistributedTracing
import LaunchTracing
import Tracing

// HelloServer as `--metric instructions` can count it under valgrind 3.19: it marks
// ready once it accepts connections, so the count ends there, and its main thread waits
// on a semaphore instead of in `dispatchMain()` (where an async main waits on Linux, and
// where valgrind 3.19 crashes: it writes into the read-only signal mask libdispatch
// hands `sigsuspend`). Its main thread marks ready: callgrind's dump at the mark counts
// the marking thread alone. `CountedServer dispatch-main` waits in `dispatchMain()`, and
// `CountedServer event-loop-mark` marks ready on an event loop, to show the line
// launchprof prints for each.
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

/// Starts the server, calling `onReady` once it accepts connections; returns when it stops.
func serve(onReady: @escaping @Sendable () -> Void) async throws {
    let configBytes = try await loadConfig()
    try await connectDatabase()
    let router = Router()
    router.get("/") { _, _ in "Hello (\(configBytes) bytes of configuration)\n" }
    let port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "") ?? 8080
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
        onServerRunning: { _ in onReady() })
    try await app.runService()
}

// `dispatch-main` waits as an async main does, in `dispatchMain()`: what valgrind 3.19 cannot run.
if CommandLine.arguments.dropFirst().first == "dispatch-main" {
    Task.detached {
        do { try await serve { LaunchTracer.markReady() } } catch { print("error: \(error)") }
        exit(0)
    }
    dispatchMain()
} else if CommandLine.arguments.dropFirst().first == "event-loop-mark" {
    // Marks ready where Hummingbird says it runs, on an event loop: not counted (one line says why).
    let stopped = DispatchSemaphore(value: 0)
    Task.detached {
        do { try await serve { LaunchTracer.markReady() } } catch { print("error: \(error)") }
        stopped.signal()
    }
    stopped.wait()
} else {
    // The main thread marks ready (callgrind's dump at the mark counts the marking thread alone).
    let ready = DispatchSemaphore(value: 0)
    let stopped = DispatchSemaphore(value: 0)
    Task.detached {
        do { try await serve { ready.signal() } } catch { print("error: \(error)") }
        ready.signal()
        stopped.signal()
    }
    ready.wait()
    LaunchTracer.markReady()
    stopped.wait()
}
