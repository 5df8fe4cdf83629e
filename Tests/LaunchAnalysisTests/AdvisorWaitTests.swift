import LaunchAnalysis
import LaunchTracing
import Testing

/// Blocking measured in every run (wall − CPU − run-queue wait), attributed by
/// what the sampler saw in any run of the site, and CPU advice weighed by what is at stake.
@Suite("Advisor: waits and stakes")
struct AdvisorWaitTests {
    static let ms = TraceBuilder.ms

    /// The profile of one run per trace.
    func profile(_ traces: [Trace], budget: LaunchBudget = LaunchBudget()) throws -> LaunchProfile {
        var runs: [RunRecord] = []
        for (index, trace) in traces.enumerated() {
            let timeline = try #require(LaunchTimeline.build(from: trace).first)
            runs.append(RunRecord(index: index + 1, isWarmup: false, status: .ok, timeline: timeline))
        }
        return LaunchProfile(runs: runs, budget: budget)
    }

    /// `Open` (App.swift:30): 3 ms of wall, 0.5 ms of CPU, 0.2 ms waiting for a CPU.
    func shortWait(
        sampled wait: ThreadSample.Wait?, target: WaitTarget? = nil, majorFaults: UInt64 = 0, estimated: Bool = false
    ) -> Trace {
        var b = TraceBuilder.hooks()
        b.span(
            "Open", 30 * Self.ms, 33 * Self.ms, line: 30,
            usage: ResourceUsage(
                cpuNanoseconds: Self.ms / 2, majorFaults: majorFaults, runQueueNanoseconds: Self.ms / 5),
            estimated: estimated)
        if let wait { b.samples(wait, from: 31 * Self.ms, to: 32 * Self.ms, target: target) }
        return b.trace()
    }

    @Test func aShortWaitSampledInOneRunIsCountedInEveryRun() throws {
        let file = WaitTarget(kind: .file, name: "/data/app/catalog.json")
        let traces = [shortWait(sampled: .disk, target: file)] + (0..<4).map { _ in shortWait(sampled: nil) }
        let findings = try profile(traces).findings
        let disk = try #require(findings.first { $0.rule == .mainThreadDiskIO })
        #expect(abs(disk.medianMs - 2.3) < 1e-9)
        #expect(disk.runsAppeared == 5 && disk.runsTotal == 5)
        #expect(disk.waitedOn == [file])
        #expect(disk.recommendation.contains("/data/app/catalog.json"))
        #expect(disk.severity == .info)  // 2.3 ms of a 400 ms budget: flagged, at the severity its cost has
        #expect(!findings.contains { $0.rule == .mainThreadBlocked })
    }

    /// A program that starts a server of its own on an ephemeral port each run is one
    /// peer: the finding names its host once, with the ports it saw.
    @Test func oneHostOnADifferentPortEachRunIsNamedOnce() throws {
        let ports = [34_009, 36_059, 36_967]
        let traces =
            ports.map { shortWait(sampled: .network, target: WaitTarget(kind: .socket, name: "127.0.0.1:\($0)")) }
            + [shortWait(sampled: .network, target: WaitTarget(kind: .socket, name: "[2001:db8::1]:443"))]
        let network = try #require(try profile(traces).findings.first { $0.rule == .mainThreadNetwork })
        #expect(
            network.waitedOn == [
                WaitTarget(kind: .socket, name: "127.0.0.1 (ports 34009, 36059, 36967)"),
                WaitTarget(kind: .socket, name: "[2001:db8::1]:443"),
            ])
        #expect(
            network.recommendation.contains("socket to 127.0.0.1 (ports 34009, 36059, 36967)"),
            "\(network.recommendation)")
    }

    @Test func portsOfOneHostFoldAndOtherTargetsStayAsTheyAre() {
        let folded = WaitTarget.foldingPorts([
            WaitTarget(kind: .socket, name: "10.0.0.1:8001"): 1, WaitTarget(kind: .socket, name: "10.0.0.1:8002"): 1,
            WaitTarget(kind: .socket, name: "10.0.0.1:8003"): 1, WaitTarget(kind: .socket, name: "10.0.0.1:8004"): 2,
            WaitTarget(kind: .socket, name: "[::1]:80"): 1, WaitTarget(kind: .socket, name: "[::1]:443"): 1,
            WaitTarget(kind: .socket, name: "10.0.0.2:443"): 4, WaitTarget(kind: .socket, name: "::1"): 1,
            WaitTarget(kind: .file, name: "/data/a:1"): 3,
        ])
        #expect(
            folded == [
                WaitTarget(kind: .socket, name: "10.0.0.1 (4 ports)"): 5,
                WaitTarget(kind: .socket, name: "[::1] (ports 80, 443)"): 2,
                WaitTarget(kind: .socket, name: "10.0.0.2:443"): 4,
                WaitTarget(kind: .socket, name: "::1"): 1,
                WaitTarget(kind: .file, name: "/data/a:1"): 3,
            ])
    }

    @Test func aCostFromEstimatedUsageSaysSo() throws {
        // One run of five had the span's usage attributed, not read: its record and the finding say so.
        let traces = [shortWait(sampled: .sleep, estimated: true)] + (0..<4).map { _ in shortWait(sampled: nil) }
        let open = try traces.map {
            try #require(LaunchTimeline.build(from: $0).first?.mainThreadSpans.first { $0.name == "Open" })
        }
        #expect(open[0].usageIsEstimated == true)
        #expect(open[1].usageIsEstimated == nil)
        let sleep = try #require(try profile(traces).findings.first { $0.rule == .mainThreadSleep })
        #expect(sleep.usageIsEstimated == true)
        #expect(sleep.estimateMark == "≈")
        let exact = try self.profile((0..<5).map { _ in shortWait(sampled: .sleep) }).findings.first {
            $0.rule == .mainThreadSleep
        }
        #expect(exact?.usageIsEstimated == nil)
        #expect(exact?.estimateMark == "")
    }

    @Test func offCPUTimeNoSampleExplainsIsABlockingWaitOfUnknownKind() throws {
        let findings = try profile((0..<5).map { _ in shortWait(sampled: nil) }).findings
        let blocked = try #require(findings.first { $0.rule == .mainThreadBlocked })
        #expect(abs(blocked.medianMs - 2.3) < 1e-9)
        #expect(blocked.recommendation.contains("could not name"))
    }

    @Test func majorFaultsCountAsDisk() throws {
        let findings = try profile((0..<3).map { _ in shortWait(sampled: nil, majorFaults: 4) }).findings
        #expect(findings.contains { $0.rule == .mainThreadDiskIO })
        #expect(!findings.contains { $0.rule == .mainThreadBlocked })
    }

    @Test(arguments: [
        (ThreadSample.Wait.process, AdvisorRule.mainThreadProcessWait), (.ipc, .mainThreadIPCWait),
        (.event, .mainThreadEventWait), (.sleep, .mainThreadSleep), (.lock, .mainThreadLockWait),
        (.other, .mainThreadBlocked),
    ])
    func eachWaitClassHasItsRule(_ wait: ThreadSample.Wait, _ rule: AdvisorRule) throws {
        let findings = try profile([shortWait(sampled: wait), shortWait(sampled: nil)]).findings
        #expect(findings.map(\.rule) == [rule])
    }

    @Test func timeWaitingForACPUIsContentionNotBlocking() throws {
        var b = TraceBuilder.hooks()
        // 30 ms of wall: 10 of CPU, 20 runnable but waiting for a core.
        b.span(
            "Parse", 30 * Self.ms, 60 * Self.ms, line: 30,
            usage: ResourceUsage(cpuNanoseconds: 10 * Self.ms, runQueueNanoseconds: 20 * Self.ms))
        b.samples(.none, from: 30 * Self.ms, to: 60 * Self.ms)
        let findings = try profile([b.trace(), b.trace()]).findings
        #expect(findings.map(\.rule) == [.deferrableCPUWork])
        #expect(findings[0].recommendation.contains("waited 20.0 ms for a CPU"))
        #expect(findings[0].recommendation.contains("contention"))
    }

    @Test func cpuAdviceIsWeighedByWhatIsAtStake() throws {
        let trace = TraceBuilder.launch().trace()  // first frame at 121 ms; Index spends 40 ms of its own CPU
        func index(_ budget: Double) throws -> Finding {
            try #require(
                try profile([trace, trace], budget: LaunchBudget(timeToFirstFrameMs: budget)).findings.first {
                    $0.rule == .deferrableCPUWork && $0.span == "Index"
                })
        }
        // Comfortably inside (121 ms of 400): info, though 40 ms is 10% of the budget.
        #expect(try index(400).severity == .info)
        // Near (121 ms of 200): by its share, 20%.
        #expect(try index(200).severity == .critical)
        // Near, a smaller share: 40 of 800 would be 5%, but 121 ms of 800 is comfortable.
        #expect(try index(800).severity == .info)
        // Over (121 ms of 110): at least a warning.
        #expect(try index(110).severity == .critical)
    }

    @Test func redactionCutsPathsToTheirLastComponent() {
        let file = WaitTarget(kind: .file, name: "/home/ana/app/catalog.json")
        #expect(file.redacted == WaitTarget(kind: .file, name: "catalog.json"))
        #expect(
            WaitTarget(kind: .process, name: "/usr/bin/git -C /home/ana/app status").redacted.name
                == "git -C app status")
        #expect(WaitTarget(kind: .socket, name: "10.0.0.1:443").redacted.name == "10.0.0.1:443")
        let text = "blocked on disk (/home/ana/app/catalog.json) and (/home/ana/app/catalog.json.bak)"
        let targets = [file, WaitTarget(kind: .file, name: "/home/ana/app/catalog.json.bak")]
        #expect(PathRedaction.redact(text, naming: targets) == "blocked on disk (catalog.json) and (catalog.json.bak)")
    }
}
