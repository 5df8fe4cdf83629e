import LaunchTracing

/// A phase of launch, between two milestones, with a stable id used by every
/// report.
public enum Phase: String, Sendable, Codable, CaseIterable, Comparable {
    /// spawn → runtimeInit: the dynamic loader.
    case loader
    /// runtimeInit → main: static initializers.
    case staticInit
    /// main → willFinishLaunching.begin: the app object and delegate.
    case appInit
    /// willFinishLaunching.begin → willFinishLaunching.end: the first launch hook.
    case willFinishLaunching
    /// didFinishLaunching.begin → didFinishLaunching.end: the second launch hook.
    case didFinishLaunching
    /// didFinishLaunching.end → firstFrame.
    case initialFrame
    /// firstFrame → fullyDrawn: extended launch.
    case extended
    /// spawn → firstFrame (hot launches: from where the hot launch began, its `hotLaunch` instant).
    case timeToFirstFrame
    /// spawn → fullyDrawn.
    case timeToFullyDrawn
    /// spawn → didFinishLaunching.end, for launches into the background.
    case timeToBackgroundReady
    /// spawn → the ready condition (uninstrumented programs).
    case timeToReady
    /// spawn → process exit.
    case timeToExit

    /// True for the totals (the rest are consecutive phases).
    public var isTotal: Bool {
        switch self {
        case .timeToFirstFrame, .timeToFullyDrawn, .timeToBackgroundReady, .timeToReady, .timeToExit: return true
        default: return false
        }
    }

    /// Orders phases as ``allCases`` lists them: consecutive phases first, then the totals.
    public static func < (lhs: Phase, rhs: Phase) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
extension Phase: CodingKeyRepresentable {}

extension Phase {
    /// The phase a launch hook runs in.
    public init(_ hook: LaunchHook) {
        switch hook {
        case .willFinishLaunching: self = .willFinishLaunching
        case .didFinishLaunching: self = .didFinishLaunching
        }
    }
}

extension Phase {
    /// The consecutive phases in launch order, each with the milestones that bound it.
    public static let consecutive: [(phase: Phase, from: Milestone, to: Milestone)] = [
        (.loader, .spawn, .runtimeInit), (.staticInit, .runtimeInit, .main),
        (.appInit, .main, .willFinishLaunchingBegin),
        (.willFinishLaunching, .willFinishLaunchingBegin, .willFinishLaunchingEnd),
        (.didFinishLaunching, .didFinishLaunchingBegin, .didFinishLaunchingEnd),
        (.initialFrame, .didFinishLaunchingEnd, .firstFrame), (.extended, .firstFrame, .fullyDrawn),
    ]
}
