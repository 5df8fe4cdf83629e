import Foundation
import LaunchHarness
import LaunchTracing

/// The bundled sample: a reading-list app with real launch work, in three variants.
///
/// `launchprof measure` with no command launches it (as `launchprof
/// __sample-app --variant naive`). Run by hand it launches once and exits.
public enum SampleApp {
    /// The launch strategies of the same app.
    public enum Variant: String, Sendable, CaseIterable {
        /// Everything synchronously in the launch hooks.
        case naive
        /// The advisor's recommendations applied.
        case optimized
        /// The naive app plus a regression: recommendations ranked on the main
        /// thread in `didFinishLaunching` (a `RankRecommendations` span), about
        /// 30 % more time to first frame. A regression gate comparing naive
        /// (base) against it has a true regression to find.
        case slowed

        /// The app delegate that launches this variant.
        var delegate: any LaunchDelegate.Type {
            switch self {
            case .naive: NaiveAppDelegate.self
            case .optimized: OptimizedAppDelegate.self
            case .slowed: SlowedAppDelegate.self
            }
        }
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

    /// Runs the app: parses `--variant naive|optimized|slowed`, then hands over
    /// to `LaunchApplication.main`. Never returns.
    public static func main(arguments: [String]) -> Never {
        let variants = Variant.allCases.map(\.rawValue)
        var variant = Variant.naive
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--variant" where index + 1 < arguments.count:
                guard let parsed = Variant(rawValue: arguments[index + 1]) else {
                    fail(
                        "unknown variant '\(arguments[index + 1])' (expected one of \(variants.joined(separator: ", ")))"
                    )
                }
                variant = parsed
                index += 2
            default:
                fail("unexpected argument '\(arguments[index])' (usage: --variant \(variants.joined(separator: "|")))")
            }
        }
        do {
            try prepare()
        } catch {
            fail("\(error)")
        }
        LaunchTracer.setMetadata(variant.rawValue, forKey: "sample.variant")
        LaunchApplication.main(delegate: variant.delegate, budget: budget(for: variant), exitAfterLaunch: true)
    }

    /// The sample's budget, in code: Apple's 400 ms, per-hook limits, and what its
    /// first screen cannot be drawn without (settings, and the books it lists).
    public static let budget = LaunchBudget(
        timeToFirstFrameMs: 400, hooksMs: [.willFinishLaunching: 50, .didFinishLaunching: 150],
        requiredForFirstFrame: [
            "InstallSampleData", "ReadSettings", "DecodeSettings", "ReadCatalog", "DecodeCatalog",
            "ReadFirstPage", "DecodeFirstPage",
        ])

    /// The budget of `variant`: ``budget``, with only the required work that
    /// variant has (the naive ones read the whole catalog; the optimized one reads
    /// its first page), so the budget names no span a launch never records.
    public static func budget(for variant: Variant) -> LaunchBudget {
        var budget = budget
        let firstPage: Set = ["ReadFirstPage", "DecodeFirstPage"]
        switch variant {
        case .naive, .slowed: budget.requiredForFirstFrame.removeAll { firstPage.contains($0) }
        case .optimized: break
        }
        return budget
    }

    /// Runs one launch of `variant` in this process (for tests) and returns the
    /// state it reached once launch fully ended (waiting for the optimized
    /// variant's background work as long as it takes, up to ten minutes: a
    /// sanitized build on a loaded machine needs far more than the default grace).
    public static func simulate(_ variant: Variant) -> ReadingListState {
        ReadingListModel.shared.reset()
        LaunchApplication.simulateLaunch(delegate: variant.delegate, graceMilliseconds: 600_000)
        return ReadingListModel.shared.state
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("sample app: \(message)\n".utf8))
        exit(2)
    }
}
