// swift-tools-version: 6.1
//
// libFuzzer targets for the readers of input LaunchProf did not write: the trace
// decoder, the budget file, the JSON report (and so a baseline) and a baseline's
// between-session spread file. A nested package, so that the
// root package's build and tests never see them. Build with the fuzzer and
// AddressSanitizer (and only so: a fuzz target has no `main` of its own):
//
//   swift build --package-path Tests/Fuzz -c release -Xswiftc -sanitize=fuzzer,address
//   Tests/Fuzz/run.sh trace 300     # seeds a corpus from a real measurement, then fuzzes 300 s

import PackageDescription

let package = Package(
    name: "LaunchProfFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "LaunchProf", path: "../../")
    ],
    targets: [
        .target(name: "LibFuzzerDriver"),
        .target(name: "FuzzerMain", dependencies: ["LibFuzzerDriver"]),
        .executableTarget(
            name: "TraceReaderFuzzer",
            dependencies: ["FuzzerMain", .product(name: "LaunchTracing", package: "LaunchProf")]
        ),
        .executableTarget(
            name: "BudgetReaderFuzzer",
            dependencies: ["FuzzerMain", .product(name: "LaunchTracing", package: "LaunchProf")]
        ),
        .executableTarget(
            name: "SpreadReaderFuzzer",
            dependencies: [
                "FuzzerMain",
                .product(name: "LaunchAnalysis", package: "LaunchProf"),
                .product(name: "LaunchReports", package: "LaunchProf"),
            ]
        ),
        .executableTarget(
            name: "ReportReaderFuzzer",
            dependencies: [
                "FuzzerMain",
                .product(name: "LaunchAnalysis", package: "LaunchProf"),
                .product(name: "LaunchReports", package: "LaunchProf"),
            ]
        ),
    ]
)

for target in package.targets where target.name != "LibFuzzerDriver" {
    target.swiftSettings = [.swiftLanguageMode(.v6)]
}
