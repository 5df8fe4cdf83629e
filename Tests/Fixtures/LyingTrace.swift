import Foundation
import LaunchTracing

#if canImport(Glibc)
    import Glibc
#endif

/// What the liars among the fixture's modes do: write a trace they did not record, one
/// first-frame mark at `firstFrame` (CLOCK_MONOTONIC nanoseconds) from `file`, where
/// launchprof told them to, then announce the first frame on the ready pipe stamped
/// `announcedAt`.
func writeLyingTrace(firstFrame: UInt64, announcedAt: UInt64, file: String) {
    let environment = ProcessInfo.processInfo.environment
    let spawn = environment[LaunchContract.Variable.spawnNanoseconds].flatMap { UInt64($0) } ?? 0
    let trace = Trace(
        clockSource: .monotonic, processID: getpid(), spawn: SpawnTime(nanoseconds: spawn, source: .parent),
        runtimeInitNanoseconds: spawn + 1_000_000, flushNanoseconds: firstFrame + 1_000_000,
        strings: ["", file],
        threads: [
            TraceThread(
                index: 0, osThreadID: UInt64(getpid()), isMain: true,
                events: [
                    TraceEvent(
                        kind: .mark, category: Milestone.firstFrame.rawValue, nameID: 0, fileID: 1,
                        beginNanoseconds: firstFrame, endNanoseconds: firstFrame)
                ])
        ])
    _ = FileManager.default.createFile(
        atPath: environment[LaunchContract.Variable.trace] ?? "trace.lptrace",
        contents: Data(TraceEncoder.encode(trace)))
    let word = LaunchContract.ReadyWord.firstFrame.line(markedAt: announcedAt)
    FileHandle(fileDescriptor: 3).write(Data((word + "\n").utf8))
}
