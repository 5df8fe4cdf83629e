import LaunchAnalysis
import LaunchTracing
import Testing

/// A program that does not use LaunchHarness — a server or a tool that links the
/// tracer alone — is advised in its own terms: startup and ready, and what it can do
/// with what it links, never the harness's API nor a sampler that did not run.
@Suite("Advisor: a program without the harness")
struct AdvisorProgramTermsTests {
    static let ms = TraceBuilder.ms

    /// A server's startup, traced with LaunchTracing alone: no launch options, no hooks.
    /// `LoadConfig` spends 50 ms of CPU, `ConnectDatabase` waits 40 ms off the CPU
    /// (no sampler names the wait), `WriteCache` blocks on disk, then it is ready.
    static func server() -> TraceBuilder {
        var b = TraceBuilder()
        b.metadata = [:]
        b.mark(.main, at: 7 * ms)
        b.span("LoadConfig", 10 * ms, 60 * ms, line: 6, category: .compute, cpu: 50 * ms)
        b.span("ConnectDatabase", 61 * ms, 101 * ms, line: 11, category: .network, cpu: 1 * ms)
        b.mark(.firstFrame, at: 102 * ms)
        return b
    }

    func findings(_ trace: Trace, budget: LaunchBudget = LaunchBudget()) throws -> [Finding] {
        let timeline = try #require(LaunchTimeline.build(from: trace).first)
        let runs = (1...3).map { RunRecord(index: $0, isWarmup: false, status: .ok, timeline: timeline) }
        return LaunchProfile(runs: runs, budget: budget).findings
    }

    static let harnessWords = [
        "app.", "deferUntilAfterFirstFrame", "runInBackground", "requiredForFirstFrame", "main queue", "sampler",
        "first frame", "watchdog",
    ]

    @Test func theAdviceNamesNoneOfTheHarnesssAPI() throws {
        let findings = try findings(Self.server().trace())
        let cpu = try #require(findings.first { $0.span == "LoadConfig" })
        let wait = try #require(findings.first { $0.span == "ConnectDatabase" })
        #expect(cpu.rule == .deferrableCPUWork)
        #expect(wait.rule == .mainThreadBlocked)
        for finding in findings {
            #expect(finding.withoutHarness == true)
            for word in Self.harnessWords {
                #expect(!finding.recommendation.contains(word), "\(finding.rule.id): \(finding.recommendation)")
            }
        }
        #expect(cpu.recommendation.contains("LoadConfig (App.swift:6)"))
        #expect(cpu.recommendation.contains("before ready") && cpu.recommendation.contains("startup path"))
        #expect(wait.recommendation.contains("concurrently"))
    }

    @Test func workReadyNeedsIsToBeStartedConcurrentlyOrMadeCheaper() throws {
        let findings = try findings(Self.server().trace(), budget: LaunchBudget(requiredForFirstFrame: ["LoadConfig"]))
        let cpu = try #require(findings.first { $0.span == "LoadConfig" })
        #expect(cpu.rule == .slowRequiredWork)
        #expect(cpu.recommendation.contains("needed before ready"))
        #expect(!Self.harnessWords.contains { cpu.recommendation.contains($0) }, "\(cpu.recommendation)")
    }

    @Test func aHarnessAppKeepsItsWording() throws {
        let findings = try findings(TraceBuilder.launch().trace())
        #expect(findings.allSatisfy { $0.withoutHarness == nil })
        let cpu = try #require(findings.first { $0.rule == .deferrableCPUWork && $0.span == "Index" })
        #expect(cpu.recommendation.contains("app.deferUntilAfterFirstFrame"))
    }
}
