import Foundation
import LaunchTracing

// Read what the first screen shows: here, this program's own file.
let loading = LaunchTracer.begin("LoadResources", category: .io)
let resources = FileManager.default.contents(atPath: CommandLine.arguments[0]) ?? Data()
loading.end()

// Work the first screen needs: a sorted index of the bytes read.
let index = LaunchTracer.measure("BuildIndex", category: .compute) {
    resources.prefix(200_000).enumerated().map { Int($0.element) << 20 | $0.offset }.sorted()
}
LaunchTracer.instant("IndexBuilt")

// The first screen is up: `launchprof measure` times the launch to here.
LaunchTracer.mark(.firstFrame)
print("ready: \(resources.count) bytes, \(index.count) index entries")
