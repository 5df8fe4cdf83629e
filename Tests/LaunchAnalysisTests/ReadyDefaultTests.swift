import LaunchAnalysis
import Testing

/// The default ready condition, decided in one place from typed observations.
@Suite("Ready default")
struct ReadyDefaultTests {
    @Test func byDefaultTheLauncherWaitsForTheFirstFrameAndAcceptsTheExit() {
        #expect(ReadyDefault.launchCondition(nil) == .firstFrame)
        #expect(ReadyDefault.acceptsExitFallback(nil))
        #expect(ReadyDefault.launchCondition(.exit) == .exit)
        #expect(!ReadyDefault.acceptsExitFallback(.firstFrame))
    }

    @Test func byDefaultARunIsReadyAtItsFirstFrameElseItsBackgroundLaunchElseWhatWasSeen() {
        #expect(ReadyDefault.timeToReady(given: nil, firstFrameMs: 120, backgroundReadyMs: 80, observedMs: 150) == 120)
        #expect(ReadyDefault.timeToReady(given: nil, firstFrameMs: nil, backgroundReadyMs: 80, observedMs: 150) == 80)
        #expect(ReadyDefault.timeToReady(given: nil, firstFrameMs: nil, backgroundReadyMs: nil, observedMs: 150) == 150)
        // A condition given keeps what the launcher saw.
        #expect(
            ReadyDefault.timeToReady(given: .exit, firstFrameMs: 120, backgroundReadyMs: nil, observedMs: 150) == 150)
    }

    @Test func theReportSaysExitOnlyWhenRunsReportedNoFrame() {
        let uninstrumented = [RunRecord(index: 1, isWarmup: false, status: .ok, timeToReadyMs: 10, timeToExitMs: 10)]
        #expect(ReadyDefault.reported(nil, runs: uninstrumented) == .exit)
        #expect(ReadyDefault.reported(nil, runs: []) == .firstFrame)
        #expect(ReadyDefault.reported(.port(8080), runs: uninstrumented) == .port(8080))
    }
}
