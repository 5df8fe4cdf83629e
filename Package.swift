// swift-tools-version: 6.1
//
// LaunchProf — a launch-time performance profiler.
//
// This package has NO package dependencies, by design: apps link LaunchTracing
// and LaunchHarness and must inherit nothing. Benchmarks live in the nested
// Benchmarks/ package. Dependencies point one way: each target depends only on
// targets above it in this file, and declares every module it imports.

import PackageDescription

let package = Package(
    name: "LaunchProf",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "LaunchTracing", targets: ["LaunchTracing"]),
        .library(name: "LaunchTracingTestSupport", targets: ["LaunchTracingTestSupport"]),
        .library(name: "LaunchHarness", targets: ["LaunchHarness"]),
        .library(name: "LaunchAnalysis", targets: ["LaunchAnalysis"]),
        .library(name: "LaunchReports", targets: ["LaunchReports"]),
        .library(name: "LaunchMeasure", targets: ["LaunchMeasure"]),
        .library(name: "LaunchExport", targets: ["LaunchExport"]),
        .executable(name: "launchprof", targets: ["launchprof"]),
    ],
    targets: [
        // Core: linked into apps
        .target(name: "_LaunchTracingShims"),
        .target(name: "LaunchTracing", dependencies: ["_LaunchTracingShims"]),
        .target(name: "LaunchHarness", dependencies: ["LaunchTracing", "_LaunchTracingShims"]),

        // Test support (a product: users unit-test their own launch code with it)
        .target(name: "LaunchTracingTestSupport", dependencies: ["LaunchTracing", "_LaunchTracingShims"]),

        // Profiler: analysis, reports, launching
        .target(name: "LaunchAnalysis", dependencies: ["LaunchTracing"]),
        .target(name: "LaunchReports", dependencies: ["LaunchTracing", "LaunchAnalysis"]),
        .target(name: "LaunchMeasure", dependencies: ["LaunchTracing", "LaunchAnalysis"]),
        .target(name: "LaunchExport", dependencies: ["LaunchTracing", "LaunchAnalysis", "LaunchReports"]),

        // Examples: the sample app `launchprof measure` measures by default
        .target(name: "SampleApp", dependencies: ["LaunchTracing", "LaunchHarness"]),

        // Tools
        .executableTarget(
            name: "launchprof",
            dependencies: ["LaunchTracing", "LaunchAnalysis", "LaunchReports", "LaunchMeasure", "LaunchExport", "SampleApp"]
        ),

        // Tests
        .executableTarget(name: "launchprof-fixture", dependencies: ["LaunchTracing", "LaunchHarness", "SampleApp"], path: "Tests/Fixtures"),
        .target(name: "_LaunchProfTestSupport", path: "Tests/Support"),
        .testTarget(
            name: "LaunchTracingTests",
            dependencies: ["LaunchTracing", "LaunchTracingTestSupport", "_LaunchTracingShims", "_LaunchProfTestSupport"]
        ),
        .testTarget(
            name: "LaunchHarnessTests",
            dependencies: [
                "LaunchTracing", "LaunchHarness", "LaunchTracingTestSupport", "SampleApp", "_LaunchProfTestSupport",
                "launchprof-fixture",  // run as a process: the sample app
            ]
        ),
        .testTarget(
            name: "LaunchAnalysisTests", dependencies: ["LaunchTracing", "LaunchAnalysis", "_LaunchProfTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "LaunchMeasureTests", dependencies: ["LaunchAnalysis", "LaunchMeasure", "_LaunchProfTestSupport"]),
        .testTarget(
            name: "LaunchReportsTests", dependencies: ["LaunchTracing", "LaunchAnalysis", "LaunchReports", "_LaunchProfTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "LaunchExportTests", dependencies: ["LaunchAnalysis", "LaunchReports", "LaunchExport", "_LaunchProfTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "LaunchReports", "LaunchAnalysis", "_LaunchProfTestSupport",
                "launchprof", "launchprof-fixture",  // run as processes
            ]
        ),
    ]
)

// Strict settings for every Swift target, in one place.
for target in package.targets where target.name != "_LaunchTracingShims" {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
