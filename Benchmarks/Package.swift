// swift-tools-version: 6.1
//
// LaunchProf's benchmarks: a nested package, so that users of the library
// never resolve the benchmark harness.
//
//   swift package --package-path Benchmarks --disable-sandbox benchmark

import PackageDescription

let package = Package(
    name: "LaunchProfBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "LaunchProf", path: "../"),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The tracer probe (see tracer-probe.sh): a small program on the release LaunchTracing and
        // LaunchHarness, without the benchmark harness, which the instruction rows count under valgrind.
        .executableTarget(
            name: "TracerProbe",
            dependencies: [
                .product(name: "LaunchTracing", package: "LaunchProf"),
                .product(name: "LaunchHarness", package: "LaunchProf"),
            ],
            path: "TracerProbe"
        ),
        .executableTarget(
            name: "TracerBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "LaunchTracing", package: "LaunchProf"),
            ],
            path: "Benchmarks/TracerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "SamplerBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "LaunchHarness", package: "LaunchProf"),
                .product(name: "LaunchTracing", package: "LaunchProf"),
            ],
            path: "Benchmarks/SamplerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "ReportBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "LaunchTracing", package: "LaunchProf"),
                .product(name: "LaunchAnalysis", package: "LaunchProf"),
                .product(name: "LaunchReports", package: "LaunchProf"),
                .product(name: "LaunchExport", package: "LaunchProf"),
                .product(name: "_SyntheticReports", package: "LaunchProf"),
            ],
            path: "Benchmarks/ReportBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
