import Foundation
import LaunchHarness
import LaunchTracing

final class AppDelegate: LaunchDelegate {
    required init() {}

    func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
        // The first screen needs this: it stays in the hook, in a span.
        let resources = LaunchTracer.measure("LoadResources", category: .io) {
            FileManager.default.contents(atPath: CommandLine.arguments[0]) ?? Data()
        }
        // CPU work the first screen does not need: on the main thread, after the first frame.
        app.deferUntilAfterFirstFrame("BuildSearchIndex") {
            let index = resources.prefix(200_000).enumerated().map { Int($0.element) << 20 | $0.offset }.sorted()
            print("search index: \(index.count) entries")
        }
        // Blocking I/O: on a background queue. Launch waits for it (or for fully drawn).
        app.reportsFullyDrawn = true
        app.runInBackground("LoadHistory") {
            let history = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
            app.deferUntilAfterFirstFrame("ShowHistory") {
                print("history: \(history.count) entries")
                app.reportFullyDrawn()  // extended launch ends: the app is fully usable
            }
        }
        return true
    }
}

LaunchApplication.main(
    delegate: AppDelegate.self,
    budget: LaunchBudget(timeToFirstFrameMs: 400, hooksMs: [.didFinishLaunching: 150]))
