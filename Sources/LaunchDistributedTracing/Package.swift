// swift-tools-version:6.0
// The swift-distributed-tracing bridge: a `Tracer` that records into LaunchTracing.
//
// A package of its own, so that LaunchProf's root package keeps no dependency: a
// server that already uses swift-distributed-tracing adds this package by path
// (`.package(path: "…/Sources/LaunchDistributedTracing")`: SwiftPM resolves only a
// repository's root manifest for a URL), or copies its one source file,
// `Sources/LaunchDistributedTracing/LaunchProfTracer.swift`, into a target of its own
// that depends on LaunchTracing and Tracing.
import PackageDescription

let package = Package(
    name: "LaunchDistributedTracing",
    products: [
        .library(name: "LaunchDistributedTracing", targets: ["LaunchDistributedTracing"])
    ],
    dependencies: [
        .package(name: "LaunchProf", path: "../.."),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
    ],
    targets: [
        .target(
            name: "LaunchDistributedTracing",
            dependencies: [
                .product(name: "LaunchTracing", package: "LaunchProf"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        .testTarget(
            name: "LaunchDistributedTracingTests",
            dependencies: [
                "LaunchDistributedTracing",
                .product(name: "LaunchTracing", package: "LaunchProf"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]),
    ]
)
