#if canImport(UIKit)
    import LaunchTracing
    import UIKit

    /// Times a real `UIApplicationDelegate`'s launch through the harness's code.
    ///
    /// Call it from your delegate's own methods; everything else (the tracer, the
    /// trace file, `launchprof`'s analysis) works as on Linux.
    ///
    /// ```swift
    /// func application(_ app: UIApplication, didFinishLaunchingWithOptions options: …) -> Bool {
    ///     UIKitLaunchAdapter.didFinishLaunching { setUpWindow(); return true }
    /// }
    /// ```
    @MainActor
    public enum UIKitLaunchAdapter {
        /// Wraps `application(_:willFinishLaunchingWithOptions:)`; its span points at the caller's line.
        public static func willFinishLaunching(
            fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, _ body: () -> Bool
        ) -> Bool {
            LaunchHook.willFinishLaunching.run(fileID: fileID, filePath: filePath, line: line, body)
        }

        /// Wraps `application(_:didFinishLaunchingWithOptions:)`, and marks the first
        /// frame at the end of the first run-loop turn after it (when Core Animation
        /// commits the first frame).
        public static func didFinishLaunching(
            fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, _ body: () -> Bool
        ) -> Bool {
            let result = LaunchHook.didFinishLaunching.run(fileID: fileID, filePath: filePath, line: line, body)
            RunLoop.main.perform { CATransaction.setCompletionBlock { LaunchTracer.mark(.firstFrame) } }
            return result
        }

        /// Marks the end of extended launch.
        public static func reportFullyDrawn() {
            LaunchTracer.mark(.fullyDrawn)
        }
    }
#endif
