import Foundation
import LaunchHarness
import LaunchTracing
import LaunchTracingTestSupport
import SampleApp
import Testing
import _LaunchProfTestSupport

/// The bundled sample: both variants do the same work, in-process and as the
/// `launchprof __sample-app` process that `launchprof measure` launches.
@Suite("Sample app", .serialized)
struct SampleAppTests {
    /// The sample's data in a temporary directory, and its configuration service,
    /// set up once per test process (the model is process-wide).
    static let data: SampleData = {
        let data = SampleData(directory: System.temporaryDirectory("lp-sample"))
        try! SampleApp.prepare(data: data)
        return data
    }()

    /// Launches `variant` in-process, traced; returns the state it reached.
    static func launch(_ variant: SampleApp.Variant) -> (ReadingListState, Trace) {
        _ = data
        var state: ReadingListState?
        let trace = LaunchTraceRecorder.record { state = SampleApp.simulate(variant) }
        return (state!, trace)
    }

    static func settings() throws -> Settings {
        let bytes = try Data(contentsOf: data.directory.appendingPathComponent("settings.json"))
        return try JSONDecoder().decode(Settings.self, from: bytes)
    }

    @Test func bothVariantsReachTheSameState() throws {
        let (naive, naiveTrace) = Self.launch(.naive)
        let launchesBefore = try Self.settings().launchCount
        let (optimized, optimizedTrace) = Self.launch(.optimized)

        #expect(naive == optimized)
        // And that state is the whole app, not two empty models.
        #expect(naive.catalogCount == SampleData.bookCount)
        #expect(naive.firstPageTitles.count == SampleData.firstPageCount)
        #expect(naive.indexTermCount > 0)
        #expect(naive.indexPostingCount >= naive.indexTermCount)
        #expect(naive.coverCount == SampleData.bookCount)
        #expect(naive.authorCacheCount > 0)
        #expect(naive.remoteConfig?.version == 7)
        #expect(naive.remoteConfig?.featuredTag == "winter")
        #expect(naive.settingsSaved && naive.snapshotPersisted)
        // Each launch saved the settings once.
        #expect(try Self.settings().launchCount == launchesBefore + 1)

        // Both ended launch; only the optimized one reports fully drawn, after its background work.
        for trace in [naiveTrace, optimizedTrace] {
            #expect(trace.milestones.contains { $0.milestone == .firstFrame })
        }
        #expect(!naiveTrace.milestones.contains { $0.milestone == .fullyDrawn })
        #expect(optimizedTrace.milestones.contains { $0.milestone == .fullyDrawn })
    }

    @Test func theOptimizedVariantMovesTheNetworkOffTheLaunchThread() throws {
        func launchThread(_ trace: Trace) throws -> UInt64 {
            try #require(trace.threads.first { thread in
                thread.events.contains { $0.kind == .span && trace.name(of: $0) == "didFinishLaunching" }
            }).osThreadID
        }
        func thread(of span: String, in trace: Trace) throws -> UInt64 {
            let event = try #require(trace.spans(named: span).first, "no \(span) span")
            return try #require(trace.threads.first { $0.events.contains(event) }).osThreadID
        }
        let (_, naive) = Self.launch(.naive)
        let (_, optimized) = Self.launch(.optimized)
        #expect(try thread(of: "FetchRemoteConfig", in: naive) == launchThread(naive))
        #expect(try thread(of: "FetchRemoteConfig", in: optimized) != launchThread(optimized))
        #expect(try thread(of: "BuildSearchIndex", in: naive) == launchThread(naive))
        // Deferred: still on the launch thread, but after the first frame.
        let index = try #require(optimized.spans(named: "BuildSearchIndex").first)
        let firstFrame = try #require(optimized.milestones.first { $0.milestone == .firstFrame })
        #expect(try thread(of: "BuildSearchIndex", in: optimized) == launchThread(optimized))
        #expect(index.beginNanoseconds >= firstFrame.nanoseconds)
    }

    // MARK: As a process

    @Test(arguments: SampleApp.Variant.allCases)
    func aTracedRunWritesATraceAndExitsOnItsOwn(_ variant: SampleApp.Variant) throws {
        let directory = System.temporaryDirectory("lp-sample-run")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tracePath = directory.appendingPathComponent("trace.bin").path
        let result = try BuiltProducts.run(
            ["__sample-app", "--variant", variant.rawValue],
            environment: [
                "LAUNCHPROF_TRACE": tracePath, "LAUNCHPROF_EXIT_AFTER_LAUNCH": "1",
                "LAUNCHPROF_SAMPLE_DIR": directory.appendingPathComponent("data").path,
            ],
            timeoutSeconds: 30)
        #expect(!result.timedOut, "the sample did not exit on its own")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let trace = try Trace.read(from: tracePath)
        #expect(trace.metadata["sample.variant"] == variant.rawValue)
        let milestones = Set(trace.milestones.map(\.milestone))
        #expect(milestones.isSuperset(of: [.main, .willFinishLaunchingBegin, .didFinishLaunchingEnd, .firstFrame]))
        #expect(milestones.contains(.fullyDrawn) == (variant == .optimized))
        // Traced, so the main thread was sampled.
        #expect(!trace.samples.isEmpty)
    }

    @Test func badLaunchOptionsInTheEnvironmentStopTheSampleBeforeLaunch() throws {
        let directory = System.temporaryDirectory("lp-sample-run")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tracePath = directory.appendingPathComponent("trace.bin").path
        let result = try BuiltProducts.run(
            ["__sample-app", "--variant", "naive"],
            environment: [
                "LAUNCHPROF_TRACE": tracePath, "LAUNCHPROF_LAUNCH_OPTIONS": #"{"reason": "shake"}"#,
                "LAUNCHPROF_SAMPLE_DIR": directory.appendingPathComponent("data").path,
            ],
            timeoutSeconds: 30)
        #expect(result.status == 2)
        #expect(result.stderr.contains("'reason'"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("shake"), "stderr: \(result.stderr)")
    }
}
