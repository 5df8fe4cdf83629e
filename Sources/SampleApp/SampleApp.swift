import Foundation
import LaunchHarness
import LaunchTracing

/// The bundled sample: a reading-list app with real launch work, in two variants.
///
/// `launchprof measure` with no command launches it (as `launchprof
/// __sample-app --variant naive`). Run by hand it launches once and exits.
public enum SampleApp {
    /// The two launch strategies of the same app.
    public enum Variant: String, Sendable, CaseIterable {
        /// Everything synchronously in the launch hooks.
        case naive
        /// The advisor's recommendations applied.
        case optimized
    }

    /// The remote configuration service's answer.
    static let remoteConfig = RemoteConfig(version: 7, featuredTag: "winter", pageSize: 40)
    /// How long the "remote" service takes to answer.
    public static let remoteLatencyMilliseconds = 60

    /// Starts the configuration service and points the model at the data; the
    /// part of the process that is not the app's launch.
    public static func prepare(data: SampleData = SampleData()) throws {
        let body = try JSONEncoder().encode(remoteConfig)
        let port = try SampleSystem.startConfigServer(latencyMilliseconds: remoteLatencyMilliseconds, body: Array(body))
        ReadingListModel.shared.configure(data: data, configPort: port)
    }

    /// Runs the app: parses `--variant naive|optimized`, then hands over to
    /// `LaunchApplication.main`. Never returns.
    public static func main(arguments: [String]) -> Never {
        var variant = Variant.naive
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--variant" where index + 1 < arguments.count:
                guard let parsed = Variant(rawValue: arguments[index + 1]) else {
                    fail("unknown variant '\(arguments[index + 1])' (expected naive or optimized)")
                }
                variant = parsed
                index += 2
            default:
                fail("unexpected argument '\(arguments[index])' (usage: --variant naive|optimized)")
            }
        }
        do {
            try prepare()
        } catch {
            fail("\(error)")
        }
        LaunchTracer.setMetadata(variant.rawValue, forKey: "sample.variant")
        switch variant {
        case .naive:
            LaunchApplication.main(delegate: NaiveAppDelegate.self, budget: budget, exitAfterLaunch: true)
        case .optimized:
            LaunchApplication.main(delegate: OptimizedAppDelegate.self, budget: budget, exitAfterLaunch: true)
        }
    }

    /// The sample's budget, in code: Apple's 400 ms, per-hook limits, and what its
    /// first screen cannot be drawn without (settings, and the books it lists).
    public static let budget = LaunchBudget(
        timeToFirstFrameMs: 400, hooksMs: [.willFinishLaunching: 50, .didFinishLaunching: 150],
        requiredForFirstFrame: [
            "InstallSampleData", "ReadSettings", "DecodeSettings", "ReadCatalog", "DecodeCatalog",
            "ReadFirstPage", "DecodeFirstPage",
        ])


    /// Runs one launch of `variant` in this process (for tests) and returns the
    /// state it reached once launch fully ended.
    public static func simulate(_ variant: Variant) -> ReadingListState {
        ReadingListModel.shared.reset()
        switch variant {
        case .naive: LaunchApplication.simulateLaunch(delegate: NaiveAppDelegate.self)
        case .optimized: LaunchApplication.simulateLaunch(delegate: OptimizedAppDelegate.self)
        }
        return ReadingListModel.shared.state
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("sample app: \(message)\n".utf8))
        exit(2)
    }
}
