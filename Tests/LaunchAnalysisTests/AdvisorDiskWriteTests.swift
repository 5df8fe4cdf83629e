import LaunchAnalysis
import LaunchTracing
import Testing

/// A synchronous disk write or `fsync` on the main thread before the first frame
/// is flagged whatever it cost on this machine's disk.
@Suite("Advisor: main-thread disk writes")
struct AdvisorDiskWriteTests {
    static let ms = TraceBuilder.ms

    /// The numbers of an x86-64 trace (the trace says so), whichever machine runs the test.
    static let fsync: Int32 = 74
    static let read: Int32 = 0

    /// `Save` (App.swift:50): 0.4 ms of wall, in which one sample caught the main
    /// thread in `syscall` on `file` (a sample at `at` ms).
    func launch(
        syscall: Int32?, file: String = "/data/app/snapshot.db", at: Double = 30.2,
        architecture: String? = SampledArchitecture.x86_64.rawValue
    ) -> Trace {
        var b = TraceBuilder.hooks()
        b.metadata[LaunchContract.MetadataKey.samplerArchitecture] = architecture
        b.span("Save", 30 * Self.ms, 30 * Self.ms + 400_000, line: 50, usage: ResourceUsage(cpuNanoseconds: 300_000))
        if let syscall {
            b.samples.append(
                ThreadSample(
                    nanoseconds: UInt64(at * 1e6), osThreadID: 7, state: UInt8(ascii: "D"), syscall: syscall,
                    wait: .disk,
                    target: WaitTarget(kind: .file, name: file)))
        }
        return b.trace()
    }

    func findings(_ traces: [Trace]) throws -> [Finding] {
        var runs: [RunRecord] = []
        for (index, trace) in traces.enumerated() {
            let timeline = try #require(LaunchTimeline.build(from: trace).first)
            runs.append(RunRecord(index: index + 1, isWarmup: false, status: .ok, timeline: timeline))
        }
        return LaunchProfile(runs: runs, budget: LaunchBudget()).findings
    }

    @Test
    func anFsyncSeenInOneRunIsAFindingNamingTheFileWhateverItCost() throws {
        let traces = [launch(syscall: Self.fsync)] + (0..<4).map { _ in launch(syscall: nil) }
        let timeline = try #require(LaunchTimeline.build(from: traces[0]).first)
        #expect(
            timeline.mainThreadFileWrites == [
                FileWrite(
                    call: "fsync", file: "/data/app/snapshot.db", span: "Save", spanFile: "Test/App.swift", spanLine: 50
                )
            ])
        let findings = try findings(traces)
        let write = try #require(findings.first { $0.rule == .mainThreadDiskWrite })
        #expect(write.severity >= .info)
        #expect(write.span == "Save" && write.file == "Test/App.swift" && write.line == 50)
        #expect(write.runsAppeared == 1 && write.runsTotal == 5)
        #expect(write.waitedOn == [WaitTarget(kind: .file, name: "/data/app/snapshot.db")])
        #expect(write.recommendation.contains("/data/app/snapshot.db") && write.recommendation.contains("fsync"))
        // Below a millisecond, no blocking finding would have been made.
        #expect(!findings.contains { $0.rule == .mainThreadDiskIO })
    }

    /// A 40 ms fsync is a blocking disk finding already, naming the file: one finding, not two.
    @Test
    func aLongWriteIsOneDiskFindingNotTwo() throws {
        func slowSave() -> Trace {
            var b = TraceBuilder.hooks()
            b.metadata[LaunchContract.MetadataKey.samplerArchitecture] = SampledArchitecture.x86_64.rawValue
            b.span("Save", 30 * Self.ms, 70 * Self.ms, line: 50, usage: ResourceUsage(cpuNanoseconds: 300_000))
            for at in stride(from: 31.0, to: 70, by: 1) {
                b.samples.append(
                    ThreadSample(
                        nanoseconds: UInt64(at * 1e6), osThreadID: 7, state: UInt8(ascii: "D"), syscall: Self.fsync,
                        wait: .disk,
                        target: WaitTarget(kind: .file, name: "/data/app/snapshot.db")))
            }
            return b.trace()
        }
        let findings = try findings((0..<5).map { _ in slowSave() })
        let disk = findings.filter {
            $0.span == "Save" && ($0.rule == .mainThreadDiskIO || $0.rule == .mainThreadDiskWrite)
        }
        #expect(disk.map(\.rule) == [.mainThreadDiskIO], "\(findings.map(\.rule))")
        #expect(disk.first?.waitedOn?.contains(WaitTarget(kind: .file, name: "/data/app/snapshot.db")) == true)
    }

    @Test
    func aReadOrAWriteAfterTheFirstFrameIsNot() throws {
        #expect(try findings([launch(syscall: Self.read)]).allSatisfy { $0.rule != .mainThreadDiskWrite })
        // The first frame is at 121 ms: a write after it is extended launch.
        var b = TraceBuilder.hooks()
        b.metadata[LaunchContract.MetadataKey.samplerArchitecture] = SampledArchitecture.x86_64.rawValue
        b.span("Later", 130 * Self.ms, 131 * Self.ms, line: 60, usage: ResourceUsage(cpuNanoseconds: 500_000))
        b.samples.append(
            ThreadSample(
                nanoseconds: 130 * Self.ms + 500_000, osThreadID: 7, state: UInt8(ascii: "D"),
                syscall: Self.fsync, wait: .disk, target: WaitTarget(kind: .file, name: "/data/late.db")))
        let late = try #require(LaunchTimeline.build(from: b.trace()).first)
        #expect(late.mainThreadFileWrites.isEmpty)
    }

    /// The numbers are the measured machine's: an arm64 trace's `fsync` (82) is one
    /// wherever it is analysed, and an x86-64 trace's 82 (`rename`) is not.
    @Test func aWriteIsToldByTheSampledMachinesNumbersNotTheAnalysingOnes() throws {
        let arm = try #require(LaunchTimeline.build(from: launch(syscall: 82, architecture: "arm64")).first)
        #expect(arm.mainThreadFileWrites.map(\.call) == ["fsync"])
        let x86 = try #require(LaunchTimeline.build(from: launch(syscall: 82, architecture: "x86_64")).first)
        #expect(x86.mainThreadFileWrites.isEmpty)
        let armWrite = try #require(LaunchTimeline.build(from: launch(syscall: 64, architecture: "arm64")).first)
        #expect(armWrite.mainThreadFileWrites.map(\.call) == ["write"])
        // A trace that does not say which machine's numbers it holds: no number is read as a write.
        let unknown = try #require(LaunchTimeline.build(from: launch(syscall: Self.fsync, architecture: nil)).first)
        #expect(unknown.mainThreadFileWrites.isEmpty)
    }

    /// A write outside any span is still one, on the main thread; the span around a write is its innermost.
    @Test func aWriteOutsideAnySpanIsTheMainThreadsAndInsideNestedSpansTheInnermosts() throws {
        var b = TraceBuilder.hooks()
        b.metadata[LaunchContract.MetadataKey.samplerArchitecture] = SampledArchitecture.x86_64.rawValue
        b.span("Outer", 30 * Self.ms, 40 * Self.ms, line: 70)
        b.span("Inner", 32 * Self.ms, 34 * Self.ms, line: 71)
        for (at, file) in [(8.0, "/data/outside.db"), (33.0, "/data/inner.db"), (36.0, "/data/outer.db")] {
            b.samples.append(
                ThreadSample(
                    nanoseconds: UInt64(at * 1e6), osThreadID: 7, state: UInt8(ascii: "D"), syscall: Self.fsync,
                    wait: .disk, target: WaitTarget(kind: .file, name: file)))
        }
        let timeline = try #require(LaunchTimeline.build(from: b.trace()).first)
        #expect(timeline.mainThreadFileWrites.map(\.file) == ["/data/outside.db", "/data/inner.db", "/data/outer.db"])
        #expect(timeline.mainThreadFileWrites.map(\.span) == [nil, "Inner", "Outer"])
    }
}
