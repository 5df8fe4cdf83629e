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
    ///
    /// The span's call site is the caller's (`#fileID`, `#line`), so reports
    /// point at the app's code, not at this file; a harness that calls it on the
    /// app's behalf passes the site it captured where the app called it.
    @inlinable
    public func run(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, _ body: () -> Bool
    ) -> Bool {
        switch self {
        case .willFinishLaunching:
            LaunchTracer.mark(.willFinishLaunchingBegin)
            defer { LaunchTracer.mark(.willFinishLaunchingEnd) }
            return LaunchTracer.measure(
                "willFinishLaunching", category: .harness, fileID: fileID, filePath: filePath, line: line, body)
        case .didFinishLaunching:
            LaunchTracer.mark(.didFinishLaunchingBegin)
            defer { LaunchTracer.mark(.didFinishLaunchingEnd) }
            return LaunchTracer.measure(
                "didFinishLaunching", category: .harness, fileID: fileID, filePath: filePath, line: line, body)
        }
    }
}
