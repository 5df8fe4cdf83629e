import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchTracing
import Testing
import _LaunchProfTestSupport

/// Whole measurement sessions on a scripted platform: no process is started.
@Suite("Measure session (scripted platform)")
struct MeasureSessionTests {
    let scratch = ScratchDirectory("measure-session")

    func measure(
        _ script: [ScriptedPlatform.Launch], runs: Int, warmup: Int = 0, ready: ReadyCondition? = .exit,
        mode: MeasureMode = .warm, commands: SessionCommands = SessionCommands()
    ) throws -> (CollectedLaunches, ScriptedPlatform) {
        let folder = try RunsFolder(replacing: scratch.file("scripted.runs"))
        let platform = ScriptedPlatform(script)
        let request = scriptedRequest(
            runs: runs, warmup: warmup, ready: ready, mode: mode, folder: folder.root, commands: commands)
        let collected = try MeasureSession.run(request, progress: nil, platform: platform)
        #expect(platform.sessions == 1 && platform.sessionsEnded == 1, "the stop handlers are put back")
        return (collected, platform)
    }

    static let launchedApp: [(Milestone, Double)] = [
        (.main, 4), (.willFinishLaunchingBegin, 5), (.willFinishLaunchingEnd, 6), (.didFinishLaunchingBegin, 6),
        (.didFinishLaunchingEnd, 30), (.firstFrame, 42),
    ]

    @Test func warmUpsThenCountedRunsEachInAFolderOfItsOwn() throws {
        let (collected, platform) = try measure(
            [.ok(readyMs: 7), .ok(readyMs: 11), .ok(readyMs: 12), .ok(readyMs: 13)], runs: 3, warmup: 1)
        #expect(collected.runs.map(\.isWarmup) == [true, false, false, false])
        #expect(collected.runs.map(\.index) == [0, 1, 2, 3])
        #expect(collected.runs.map(\.timeToReadyMs) == [7, 11, 12, 13])
        #expect(collected.runs.allSatisfy { $0.status == .ok && $0.problem == nil })
        #expect(
            platform.requests.map { URL(fileURLWithPath: $0.workDirectory).lastPathComponent } == [
                "warmup-1", "run-1", "run-2", "run-3",
            ])
        // The launch contract: the trace path in the launch's folder, exit after the launch, no hot launches.
        for request in platform.requests {
            #expect(
                request.extraEnvironment[LaunchContract.Variable.trace] == request.workDirectory + "/"
                    + MeasureSession.traceFileName)
            #expect(request.extraEnvironment[LaunchContract.Variable.exitAfterLaunch] == "1")
            // Set, so that a value in launchprof's own environment is never what the launch inherits.
            #expect(request.extraEnvironment[LaunchContract.Variable.hotLaunches] == "0")
            #expect(request.ready == .exit && request.timeoutSeconds == 20)
        }
        #expect(collected.environment.hostname == "scripted" && collected.finishedAt == "2026-11-26T00:00:00Z")
        #expect(collected.stopReason == nil && collected.stopSignal == nil)
    }

    @Test func aFailedExitKeepsItsCodeAndTheLastLineOfStderr() throws {
        var failing = ScriptedPlatform.Launch(
            termination: .exited(code: 3), readyMs: nil, stderr: "loading\nno config found\n")
        failing.readyMs = nil
        let (collected, _) = try measure([.ok(), failing, .ok()], runs: 3)
        let run = try #require(collected.runs.dropFirst().first)
        #expect(run.status == .failedExit && run.exitCode == 3)
        #expect(run.problem == "exited with code 3 (stderr: no config found)")
        #expect(
            run.diagnosis == LaunchProblem(.failedExit(code: 3), stderrLine: "no config found"),
            "the value beside the words")
        #expect(collected.runs.count == 3, "the runs after a failed one are made")
    }

    @Test func aCrashKeepsItsSignal() throws {
        let (collected, _) = try measure(
            [ScriptedPlatform.Launch(termination: .signaled(signal: 11), readyMs: nil)], runs: 1)
        #expect(collected.runs.first?.status == .crashed)
        #expect(collected.runs.first?.signal == 11)
        #expect(collected.runs.first?.problem?.hasPrefix("killed by signal 11") == true)
    }

    @Test func aTimeoutUnderAStdoutPatternSaysTheProgramMayBuffer() throws {
        let (collected, _) = try measure(
            [ScriptedPlatform.Launch(termination: .timedOut, readyMs: nil)], runs: 1,
            ready: .stdout(pattern: "listening"))
        let problem = try #require(collected.runs.first?.problem)
        #expect(collected.runs.first?.status == .timedOut)
        #expect(problem.hasPrefix("not ready within 20 s"))
        #expect(problem.contains("it wrote nothing on stdout"))
    }

    @Test func byDefaultAnInstrumentedRunIsReadyAtItsFirstFrame() throws {
        var launch = ScriptedPlatform.Launch(readyMs: 50, readyIsExitFallback: true)
        launch.milestones = Self.launchedApp
        let (collected, platform) = try measure([launch], runs: 1, ready: nil)
        let run = try #require(collected.runs.first)
        #expect(platform.requests.first?.ready == .firstFrame)
        #expect(run.status == .ok)
        #expect(run.timeToReadyMs == 42, "the trace's first frame, not the exit the launcher saw")
        // Named where the runs folder will be once committed (the launch wrote it in the staging folder).
        #expect(
            run.tracePath
                == platform.requests.first.flatMap { $0.namedDirectory }.map { $0 + "/" + MeasureSession.traceFileName }
        )
    }

    @Test func anAppAskedForItsFirstFrameThatExitsWithoutOneIsToldSo() throws {
        var launch = ScriptedPlatform.Launch(readyMs: 50, readyIsExitFallback: true)
        launch.milestones = Array(Self.launchedApp.dropLast())
        let (collected, _) = try measure([launch], runs: 1, ready: .firstFrame)
        #expect(collected.runs.first?.status == .neverReady)
        #expect(collected.runs.first?.problem == LaunchDiagnosis.noFirstFrame.text)
    }

    @Test func aTraceWithAnotherLaunchsSpawnStampIsNotCounted() throws {
        var launch = ScriptedPlatform.Launch(readyMs: 50)
        launch.milestones = Self.launchedApp
        launch.traceSpawnNanoseconds = 12_345
        let (collected, _) = try measure([launch], runs: 1, ready: nil)
        #expect(collected.runs.first?.status == .invalidTrace)
        #expect(collected.runs.first?.problem?.contains("the trace is not this launch's") == true)
        #expect(collected.runs.first?.timeline == nil)
    }

    @Test func aFailedWarmUpEndsTheSessionBeforeAnyCountedRun() throws {
        let (collected, platform) = try measure(
            [ScriptedPlatform.Launch(termination: .exited(code: 1), readyMs: nil)], runs: 3, warmup: 1)
        #expect(platform.requests.count == 1)
        #expect(collected.stopReason?.hasPrefix("warm-up 1 failed (exited with code 1)") == true)
    }

    @Test func aFirstLaunchThatCannotStartIsAnError() throws {
        #expect(throws: LaunchError.spawnFailed(path: "/scripted/app", code: 13)) {
            _ = try measure([ScriptedPlatform.Launch(error: .spawnFailed(path: "/scripted/app", code: 13))], runs: 2)
        }
    }

    @Test func aLaterLaunchThatCannotStartEndsTheSessionKeepingWhatWasMeasured() throws {
        let (collected, _) = try measure(
            [.ok(), ScriptedPlatform.Launch(error: .spawnFailed(path: "/scripted/app", code: 13))], runs: 3)
        #expect(collected.runs.count == 1)
        #expect(collected.stopReason?.hasPrefix("run 2 of 3 could not be started") == true)
    }

    @Test func aStopSignalEndsTheSessionAfterTheCurrentLaunch() throws {
        var stopped = ScriptedPlatform.Launch.ok()
        stopped.stopSignal = 2
        let (collected, platform) = try measure([.ok(), stopped, .ok()], runs: 3)
        #expect(platform.requests.count == 2)
        #expect(collected.runs.count == 2)
        #expect(collected.stopSignal == 2 && collected.stopSignalName == "INT")
    }

    @Test func anInterruptedLaunchIsNotCounted() throws {
        var interrupted = ScriptedPlatform.Launch(termination: .interrupted, readyMs: nil)
        interrupted.stopSignal = 15
        let (collected, _) = try measure([.ok(), interrupted], runs: 2)
        #expect(collected.runs.map(\.index) == [1])
        #expect(collected.stopSignal == 15)
    }

    @Test func commandsRunAroundTheLaunchesThroughThePlatform() throws {
        let commands = SessionCommands(prepare: "reset", setup: "start", cleanup: "stop")
        let (_, platform) = try measure([.ok(), .ok(), .ok()], runs: 2, warmup: 1, mode: .cold, commands: commands)
        #expect(platform.commands.map(\.role) == [.setup, .prepare, .prepare, .prepare, .cleanup])
        #expect(platform.cacheDrops == 3, "a cold launch drops the file cache first")
    }

    @Test func aFailingPrepareAfterARunEndsTheSessionAndCleansUp() throws {
        let folder = try RunsFolder(replacing: scratch.file("scripted.runs"))
        let platform = ScriptedPlatform([.ok(), .ok()])
        let request = scriptedRequest(
            runs: 2, folder: folder.root, commands: SessionCommands(prepare: "reset", cleanup: "stop"))
        platform.failingRoles = [.prepare]
        #expect(throws: LaunchError.self) { _ = try MeasureSession.run(request, progress: nil, platform: platform) }
        #expect(platform.requests.isEmpty, "no launch after a failed prepare")
        #expect(platform.commands.map(\.role) == [.prepare, .cleanup])
    }

    @Test func aFailingPrepareAfterARunStopsBeforeTheNextLaunchKeepingTheRun() throws {
        let folder = try RunsFolder(replacing: scratch.file("scripted.runs"))
        let platform = ScriptedPlatform([.ok(), .ok()])
        platform.prepareFailsFrom = 2
        let request = scriptedRequest(runs: 2, folder: folder.root, commands: SessionCommands(prepare: "reset"))
        let collected = try MeasureSession.run(request, progress: nil, platform: platform)
        #expect(platform.requests.count == 1)
        #expect(collected.runs.map(\.index) == [1])
        #expect(collected.stopReason?.hasSuffix("(before run 2 of 2)") == true)
    }

    @Test func hotModeNeedsAProgramThatTracesItsHooks() throws {
        let (collected, platform) = try measure([.ok()], runs: 3, warmup: 1, mode: .hot)
        #expect(platform.requests.first?.extraEnvironment[LaunchContract.Variable.hotLaunches] == "4")
        #expect(platform.requests.first?.timeoutSeconds == 80)
        #expect(collected.runs.count == 1)
        #expect(collected.runs.first?.status == .invalidTrace)
        #expect(collected.runs.first?.problem == LaunchDiagnosis.hotModeNeedsHooks.text)
    }
}

/// Why a session stopped, as values, and the words they are given.
@Suite("Session stop")
struct SessionStopTests {
    @Test func eachStopNamesTheLaunchAndWhatHappened() {
        #expect(
            SessionStop.couldNotStart(.run(2, of: 10), .spawnFailed(path: "/app", code: 13)).text.hasPrefix(
                "run 2 of 10 could not be started: "))
        #expect(
            SessionStop.warmupFailed(1, problem: "exited with code 3").text
                == "warm-up 1 failed (exited with code 3); no counted run was made (--ignore-failures goes on regardless)"
        )
        let failure = LaunchError.commandFailed(role: "--prepare", command: "reset", problem: "exited with code 1")
        #expect(SessionStop.prepareFailed(failure, before: .hot).text == "\(failure) (before the hot launch)")
        #expect(SessionStop.prepareFailed(failure, before: .warmup(2)).text.hasSuffix("(before warm-up 2)"))
        #expect(SessionStop.cleanupFailed(failure).text == failure.description)
        var named = SessionStop.couldNotStart(.counted(3), .spawnFailed(path: "/app", code: 13))
        named.side = .head
        #expect(named.text.hasPrefix("head counted launch 3 could not be started: "))
    }

    @Test func aStopIsKeptAsAValueBesideItsWordsAndReadsBackFromJSON() throws {
        let stops = [
            SessionStop.couldNotStart(.run(2, of: 10), .spawnFailed(path: "/app", code: 13)),
            SessionStop.warmupFailed(1, problem: "exited with code 3"),
            SessionStop(
                .prepareFailed, launch: .hot, detail: "--prepare command 'reset' failed: exited with code 1",
                side: .base),
            SessionStop(.prepareFailed, launch: .counted(2), detail: "x"),
            SessionStop.cannotCount(.toolMissing(tool: "objcopy", hint: "needs objcopy")),
        ]
        for stop in stops {
            #expect(try JSONDecoder().decode(SessionStop.self, from: JSONEncoder().encode(stop)) == stop)
        }
        let scratch = ScratchDirectory("session-stop")
        let folder = try RunsFolder(replacing: scratch.file("stop.runs"))
        let platform = ScriptedPlatform([
            .ok(), ScriptedPlatform.Launch(error: .spawnFailed(path: "/scripted/app", code: 13)),
        ])
        let request = scriptedRequest(runs: 3, folder: folder.root)
        let collected = try MeasureSession.run(request, progress: nil, platform: platform)
        let stop = try #require(collected.stop)
        #expect(stop.kind == .couldNotStart && stop.launch == .run(2, of: 3) && stop.side == nil)
        #expect(collected.stopReason == stop.text)
        let report = MeasurementReport(plan: request.plan, collected: collected, budget: BudgetResolution())
        let read = try JSONDecoder().decode(MeasurementReport.self, from: JSONEncoder().encode(report))
        #expect(read.stop == stop && read.stopReason == stop.text)
        #expect(report.outcome.reason.hasPrefix(stop.text))
    }
}
