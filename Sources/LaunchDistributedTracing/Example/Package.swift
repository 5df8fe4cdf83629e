// swift-tools-version:6.0
// A Hummingbird hello-world server whose startup is traced with swift-distributed-tracing
// alone (`withSpan`), measured by `launchprof measure --ready port:8080`: the bridge
// names its spans with no LaunchTracing call in its code. `CountedServer` is the same server
// as `launchprof measure --metric instructions` can count it under valgrind 3.19 (its main
// thread waits on a semaphore, not in dispatchMain(), and marks ready). Not built by
// LaunchProf's CI (Hummingbird takes minutes to build).
import PackageDescription

let package = Package(
    name: "HelloServer",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(name: "LaunchProf", path: "../../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
    ],
    targets: [
        .executableTarget(
            name: "HelloServer",
            dependencies: [
                .product(name: "LaunchDistributedTracing", package: "LaunchDistributedTracing"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        .executableTarget(
            name: "CountedServer",
            dependencies: [
                .product(name: "LaunchDistributedTracing", package: "LaunchDistributedTracing"),
                .product(name: "LaunchTracing", package: "LaunchProf"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
    ]
)
