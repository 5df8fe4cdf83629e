import LaunchTracing

/// A launch hook, timed the same way whoever calls it: milestones around a
/// span on the calling (main) thread. LaunchSequence and the UIKit adapter
/// both go through here.
public enum LaunchHook: Sendable {
    case willFinishLaunching
    case didFinishLaunching

    /// Runs `body` as this hook: marks `<hook>.begin`, records a span named for
    /// the hook, marks `<hook>.end`, and returns what `body` returned.
    @inlinable
    public func run(_ body: () -> Bool) -> Bool {
        switch self {
        case .willFinishLaunching:
            LaunchTracer.mark(.willFinishLaunchingBegin)
            defer { LaunchTracer.mark(.willFinishLaunchingEnd) }
            return LaunchTracer.measure("willFinishLaunching", category: .harness, body)
        case .didFinishLaunching:
            LaunchTracer.mark(.didFinishLaunchingBegin)
            defer { LaunchTracer.mark(.didFinishLaunchingEnd) }
            return LaunchTracer.measure("didFinishLaunching", category: .harness, body)
        }
    }
}
