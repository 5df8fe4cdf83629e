// swift-tools-version: 6.1
//
// LaunchProf — a launch-time performance profiler.
//
// This package has NO package dependencies, by design: apps link LaunchTracing
// and must inherit nothing. Benchmarks live in the nested Benchmarks/ package.

import PackageDescription

let package = Package(
    name: "LaunchProf",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "LaunchTracing", targets: ["LaunchTracing"]),
        .library(name: "LaunchTracingTestSupport", targets: ["LaunchTracingTestSupport"]),
        .executable(name: "launchprof", targets: ["launchprof"]),
    ],
    targets: [
        // Core
        .target(name: "_LaunchTracingShims"),
        .target(name: "LaunchTracing", dependencies: ["_LaunchTracingShims"]),

        // Test support (a product: users unit-test their own launch code with it)
        .target(name: "LaunchTracingTestSupport", dependencies: ["LaunchTracing"]),

        // Tools
        .executableTarget(name: "launchprof", dependencies: ["LaunchTracing"]),

        // Tests
        .testTarget(
            name: "LaunchTracingTests",
            dependencies: ["LaunchTracing", "LaunchTracingTestSupport", "_LaunchTracingShims"]
        ),
    ]
)

// Strict settings for every Swift target, in one place.
for target in package.targets where target.type != .system && target.name != "_LaunchTracingShims" {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
