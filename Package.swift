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
        // For the nested Benchmarks/ package only: the synthetic reports its benchmarks and the tests share.
        .library(name: "_SyntheticReports", targets: ["_SyntheticReports"]),
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
        // the system calls LaunchMeasure, LaunchExport and LaunchFrontend share, written once
        .target(name: "_LaunchSystem", dependencies: ["LaunchTracing"]),
        .target(name: "_LaunchMeasureShims"),  // spawning a child that dies with launchprof
        .target(
            name: "LaunchMeasure",
            dependencies: ["LaunchTracing", "LaunchAnalysis", "_LaunchSystem", "_LaunchMeasureShims"]),
        .target(
            name: "LaunchExport", dependencies: ["LaunchTracing", "LaunchAnalysis", "LaunchReports", "_LaunchSystem"]),

        // Examples: the sample app `launchprof measure` measures by default
        .target(name: "SampleApp", dependencies: ["LaunchTracing", "LaunchHarness"]),
        // Examples: the README's two ways to adopt LaunchProf, shown there byte for byte
        // and built and measured by EndToEndTests (AdoptionExampleTests)
        .executableTarget(name: "ExampleSpansApp", dependencies: ["LaunchTracing"]),
        .executableTarget(name: "ExampleHarnessApp", dependencies: ["LaunchTracing", "LaunchHarness"]),

        // Frontend: the one pipeline from a command line to the files (plan, session, report, output)
        .target(
            name: "LaunchFrontend",
            dependencies: [
                "LaunchTracing", "LaunchAnalysis", "LaunchReports", "LaunchMeasure", "LaunchExport", "SampleApp",
                "_LaunchSystem",
            ]
        ),

        // Tools
        .executableTarget(name: "launchprof", dependencies: ["LaunchFrontend"]),

        // Tests
        .executableTarget(
            name: "launchprof-fixture", dependencies: ["LaunchTracing", "LaunchHarness", "SampleApp"],
            path: "Tests/Fixtures"),
        // The advisor's defect suite: an app with one launch defect per case (not the sample).
        .target(name: "_DefectShims", path: "Tests/DefectShims"),
        .executableTarget(
            name: "launchprof-defects", dependencies: ["LaunchTracing", "LaunchHarness", "_DefectShims"],
            path: "Tests/Defects"),
        .target(name: "_LaunchProfTestSupport", path: "Tests/Support"),
        // Large synthetic reports, one builder for the unit tests and Benchmarks/ (a product for that package)
        .target(
            name: "_SyntheticReports", dependencies: ["LaunchTracing", "LaunchAnalysis"], path: "Tests/SyntheticReports"
        ),
        .testTarget(
            name: "LaunchTracingTests",
            dependencies: [
                "LaunchTracing", "LaunchTracingTestSupport", "_LaunchTracingShims", "_LaunchProfTestSupport",
            ],
            exclude: ["Goldens"]
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
        .testTarget(
            name: "LaunchMeasureTests",
            dependencies: ["LaunchTracing", "LaunchAnalysis", "LaunchMeasure", "_LaunchProfTestSupport"]),
        .testTarget(
            name: "LaunchReportsTests",
            dependencies: [
                "LaunchTracing", "LaunchAnalysis", "LaunchReports", "_LaunchProfTestSupport", "_SyntheticReports",
            ],
            exclude: ["Fixtures", "Goldens"]
        ),
        .testTarget(
            name: "DefectSuiteTests",
            dependencies: [
                "LaunchTracing", "LaunchAnalysis", "LaunchReports", "_LaunchProfTestSupport",
                "launchprof", "launchprof-defects",  // run as processes
            ]
        ),
        .testTarget(
            name: "LaunchExportTests",
            dependencies: ["LaunchAnalysis", "LaunchReports", "LaunchExport", "_LaunchProfTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "LaunchFrontendTests",
            dependencies: ["LaunchTracing", "LaunchAnalysis", "LaunchFrontend", "_LaunchProfTestSupport"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "LaunchTracing", "LaunchReports", "LaunchAnalysis", "LaunchMeasure", "_LaunchProfTestSupport",
                "launchprof", "launchprof-fixture",  // run as processes
                "ExampleSpansApp", "ExampleHarnessApp",  // the README's examples, run as processes
            ],
            exclude: ["Goldens"]
        ),
    ]
)

// Strict settings for every Swift target, in one place.
for target in package.targets
where !["_LaunchTracingShims", "_LaunchMeasureShims", "_DefectShims"].contains(target.name) {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
