import LaunchTracing

/// The app's launch hooks, mirroring UIKit's `UIApplicationDelegate`.
///
/// ``LaunchApplication/main(delegate:budget:options:exitAfterLaunch:)`` creates the
/// delegate and calls these on the main thread in the system's order:
/// `willFinishLaunching`, `didFinishLaunching`, then (unless the launch is in the
/// background) `didBecomeActive`. The UI stays hidden until both launch hooks
/// return; only work the app cannot run without belongs in them.
///
/// ```swift
/// final class AppDelegate: LaunchDelegate {
///     required init() {}
///     func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
///         app.deferUntilAfterFirstFrame("BuildSearchIndex") { index.build() }
///         return true
///     }
/// }
/// ```
public protocol LaunchDelegate: AnyObject {
    /// The harness creates a fresh delegate for every launch (and hot launch).
    init()

    /// The launch process has begun; restore state. Returning `false` is recorded
    /// and, as in UIKit, means a URL the app was launched with is not opened.
    func willFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool

    /// Launch is almost done; the app is about to be shown. Same `false` rule.
    func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool

    /// The app became active (foreground launches only).
    func didBecomeActive(_ app: LaunchApplication)

    /// Open a URL the app was launched with (called after both hooks returned `true`).
    func open(_ app: LaunchApplication, url: String) -> Bool
}

extension LaunchDelegate {
    public func willFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool { true }
    public func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool { true }
    public func didBecomeActive(_ app: LaunchApplication) {}
    public func open(_ app: LaunchApplication, url: String) -> Bool { true }
}
