import Foundation
import LaunchHarness
import LaunchTracing
import LaunchTracingTestSupport
import SampleApp
import Testing
import _LaunchProfTestSupport

/// The bundled sample: every variant does the same work (the slowed one some
/// more), in-process and as a process (`launchprof-fixture sample-app`, which runs the sample exactly as
/// `launchprof __sample-app` does when `launchprof measure` launches it).
@Suite("Sample app", .serialized)
struct SampleAppTests {
    /// Where the in-process launches keep the sample's data: for the whole test
    /// process (the model is process-wide), so never removed.
    static let dataDirectory = ScratchDirectory("lp-sample")

    /// The sample's data, and its configuration service, set up once per test process.
    static let data: SampleData = {
        let data = SampleData(directory: dataDirectory.url)
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

    @Test func theSlowedVariantReachesTheNaiveStatePlusItsRecommendations() throws {
        let (naive, _) = Self.launch(.naive)
        let launchesBefore = try Self.settings().launchCount
        let (slowed, slowedTrace) = Self.launch(.slowed)

        #expect(naive.recommendedBookIDs.isEmpty)
        var slowedWithoutRecommendations = slowed
        slowedWithoutRecommendations.recommendedBookIDs = []
        #expect(slowedWithoutRecommendations == naive)
        #expect(try Self.settings().launchCount == launchesBefore + 1)
        // The extra result: a page of distinct books from the catalog, kept in the model.
        let picks = slowed.recommendedBookIDs
        #expect(picks.count == SampleData.firstPageCount)
        #expect(Set(picks).count == picks.count)
        #expect(picks.allSatisfy { (0..<SampleData.bookCount).contains($0) })
        #expect(slowedTrace.spans(named: "RankRecommendations").count == 1)
        #expect(!slowedTrace.milestones.contains { $0.milestone == .fullyDrawn })
    }

    @Test func theOptimizedVariantMovesTheNetworkOffTheLaunchThread() throws {
        func launchThread(_ trace: Trace) throws -> UInt64 {
            try #require(
                trace.threads.first { thread in
                    thread.events.contains { $0.kind == .span && trace.name(of: $0) == "didFinishLaunching" }
                }
            ).osThreadID
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

    /// Each process run's trace and data; removed after the test.
    let scratch = ScratchDirectory("lp-sample-run")

    /// Runs the sample app as its own process, through the test fixture.
    func runSample(_ arguments: [String], environment: [String: String]) throws -> BuiltProducts.Result {
        try BuiltProducts.run(
            ["sample-app"] + arguments, executable: BuiltProducts.fixture, environment: environment, timeoutSeconds: 30)
    }

    @Test(arguments: SampleApp.Variant.allCases)
    func aTracedRunWritesATraceAndExitsOnItsOwn(_ variant: SampleApp.Variant) throws {
        let tracePath = scratch.file("trace.bin")
        let result = try runSample(
            ["--variant", variant.rawValue],
            environment: [
                "LAUNCHPROF_TRACE": tracePath, "LAUNCHPROF_EXIT_AFTER_LAUNCH": "1",
                "LAUNCHPROF_SAMPLE_DIR": scratch.file("data"),
                // The optimized variant is over at fully drawn, after its background work: a sanitized
                // build on a loaded machine can take longer than the default grace (as simulate allows).
                "LAUNCHPROF_GRACE_MS": "600000",
            ])
        #expect(!result.timedOut, "the sample did not exit on its own")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let trace = try Trace.read(from: tracePath)
        #expect(trace.metadata["sample.variant"] == variant.rawValue)
        let milestones = Set(trace.milestones.map(\.milestone))
        #expect(milestones.isSuperset(of: [.main, .willFinishLaunchingBegin, .didFinishLaunchingEnd, .firstFrame]))
        #expect(milestones.contains(.fullyDrawn) == (variant == .optimized))
        // Traced, so the main thread was sampled; how the sampler woke, and how often, is recorded.
        #expect(!trace.samples.isEmpty)
        let mode = trace.metadata[LaunchContract.MetadataKey.samplerMode]
        #expect(mode == "switches" || mode == "periodic", "sampler.mode \(mode ?? "missing")")
        let wakeups = trace.metadata[LaunchContract.MetadataKey.samplerWakeups].flatMap { Int($0) }
        #expect((wakeups ?? 0) >= 1, "sampler.wakeups \(String(describing: wakeups))")
        // Its own CPU time, in two parts: the set-up (some, at least the watch's or the timer's
        // files opened) and a cost per sample.
        let setup = trace.metadata[LaunchContract.MetadataKey.samplerSetup].flatMap { UInt64($0) }
        #expect((setup ?? 0) > 0, "sampler.setupNs \(String(describing: setup))")
        #expect(trace.metadata[LaunchContract.MetadataKey.samplerCost].flatMap { UInt64($0) } != nil)
        // And what accounting cost the main thread: some system calls (its first reading reads).
        let calls = trace.metadata[LaunchContract.MetadataKey.accountingSystemCalls].flatMap { Int($0) }
        #expect((calls ?? 0) >= 1, "accounting.systemCalls \(String(describing: calls))")
        #expect(
            trace.metadata[LaunchContract.MetadataKey.accountingReadingsWithoutSystemCall].flatMap { Int($0) } != nil)
    }

    @Test func theSlowedVariantRanksInsideDidFinishLaunchingOnTheMainThread() throws {
        let tracePath = scratch.file("trace.bin")
        let result = try runSample(
            ["--variant", "slowed"],
            environment: [
                "LAUNCHPROF_TRACE": tracePath, "LAUNCHPROF_EXIT_AFTER_LAUNCH": "1",
                "LAUNCHPROF_SAMPLE_DIR": scratch.file("data"),
            ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let trace = try Trace.read(from: tracePath)

        let rank = try #require(trace.spans(named: "RankRecommendations").first)
        #expect(trace.spans(named: "RankRecommendations").count == 1)
        #expect(rank.category == SpanCategory.compute.rawValue)
        #expect(trace.file(of: rank).hasSuffix("SlowedAppDelegate.swift"))
        #expect(rank.line > 0)
        let thread = try #require(trace.threads.first { $0.events.contains(rank) })
        #expect(thread.isMain)
        let hook = try #require(
            thread.events.first { $0.kind == .span && trace.name(of: $0) == "didFinishLaunching" },
            "RankRecommendations is not on the thread that ran didFinishLaunching")
        #expect(hook.beginNanoseconds <= rank.beginNanoseconds && rank.endNanoseconds <= hook.endNanoseconds)
        // Before the first frame: it is what the frame waits for.
        let firstFrame = try #require(trace.milestones.first { $0.milestone == .firstFrame })
        #expect(rank.endNanoseconds <= firstFrame.nanoseconds)
    }

    /// A launch cut off while saving once left `settings.json` empty, and every later
    /// launch died on it: a corrupt file now counts as absent.
    @Test(arguments: ["", "{\"sortOrder\": ", "\u{0}\u{0}\u{0}"])
    func aCorruptSettingsFileIsTreatedAsAbsent(_ contents: String) throws {
        let data = scratch.file("data")
        let environment = ["LAUNCHPROF_EXIT_AFTER_LAUNCH": "1", "LAUNCHPROF_SAMPLE_DIR": data]
        let install = try runSample(["--variant", "naive"], environment: environment)
        #expect(install.status == 0, "stderr: \(install.stderr)")
        let settingsPath = data + "/settings.json"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: settingsPath))

        let result = try runSample(["--variant", "naive"], environment: environment)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("settings") }
        #expect(warnings.count == 1, "stderr: \(result.stderr)")
        #expect(warnings.first?.contains("using the default settings") == true)
        // The launch saved good settings again, counting from the defaults.
        let saved = try JSONDecoder().decode(Settings.self, from: Data(contentsOf: URL(fileURLWithPath: settingsPath)))
        #expect(saved.launchCount == Settings.defaults.launchCount + 1)
    }

    /// Saving replaces the file (a new inode renamed over it), never rewrites it in
    /// place: a hard link to the old file keeps the old contents, and no temporary is left.
    @Test func savingTheSettingsReplacesTheFileAtomically() throws {
        let data = scratch.file("data")
        let environment = ["LAUNCHPROF_EXIT_AFTER_LAUNCH": "1", "LAUNCHPROF_SAMPLE_DIR": data]
        #expect(try runSample(["--variant", "naive"], environment: environment).status == 0)
        let settingsPath = data + "/settings.json"
        let oldPath = data + "/settings.before"
        #expect(link(settingsPath, oldPath) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: settingsPath))

        let result = try runSample(["--variant", "naive"], environment: environment)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: oldPath)) == before)
        let old = try JSONDecoder().decode(Settings.self, from: before)
        let new = try JSONDecoder().decode(Settings.self, from: Data(contentsOf: URL(fileURLWithPath: settingsPath)))
        #expect(new.launchCount == old.launchCount + 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func badLaunchOptionsInTheEnvironmentStopTheSampleBeforeLaunch() throws {
        let tracePath = scratch.file("trace.bin")
        let result = try runSample(
            ["--variant", "naive"],
            environment: [
                "LAUNCHPROF_TRACE": tracePath, "LAUNCHPROF_LAUNCH_OPTIONS": #"{"reason": "shake"}"#,
                "LAUNCHPROF_SAMPLE_DIR": scratch.file("data"),
            ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'reason'"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("shake"), "stderr: \(result.stderr)")
    }
}
