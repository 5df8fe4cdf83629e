/// A launch hook, timed the same way whoever calls it: milestones around a
/// span on the calling (main) thread. LaunchSequence and the UIKit adapter
/// both go through here. Budgets name hooks by their raw value
/// (`willFinishLaunching`, `didFinishLaunching`).
public enum LaunchHook: String, Sendable, Hashable, CaseIterable, Codable, CodingKeyRepresentable {
    /// `application(_:willFinishLaunchingWithOptions:)`.
    case willFinishLaunching
    /// `application(_:didFinishLaunchingWithOptions:)`.
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
