import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchTracing
import Testing
import _LaunchProfTestSupport

/// Launches counted under valgrind (`--metric instructions`), made through the
/// session's platform like the timed ones: a scripted platform, no process started.
@Suite("Counted launches (scripted platform)")
struct CountedLaunchesTests {
    let scratch = ScratchDirectory("counted-launches")

    func measure(
        _ script: [ScriptedPlatform.Launch], runs: Int, counted: Int, commands: SessionCommands = SessionCommands(),
        prepareFailsFrom: Int? = nil
    ) throws -> (CollectedLaunches, ScriptedPlatform) {
        let folder = try RunsFolder(replacing: scratch.file("counted.runs"))
        let platform = ScriptedPlatform(script)
        platform.prepareFailsFrom = prepareFailsFrom
        let request = scriptedRequest(runs: runs, folder: folder.root, commands: commands, counted: counted)
        let collected = try MeasureSession.run(request, progress: nil, platform: platform)
        #expect(platform.script.isEmpty, "every scripted launch was made")
        return (collected, platform)
    }

    /// A launch under valgrind that exits with `code` (0: it wrote its counts).
    static func counted(_ instructions: UInt64, code: Int32 = 0, stderr: String = "") -> ScriptedPlatform.Launch {
        var launch = ScriptedPlatform.Launch(termination: .exited(code: code), stderr: stderr)
        launch.instructions = instructions
        return launch
    }

    @Test func countedLaunchesFollowTheTimedOnesEachAfterPrepareAsTheContractSays() throws {
        let (collected, platform) = try measure(
            [.ok(), .ok(), Self.counted(1_000), Self.counted(1_001), Self.counted(1_002)], runs: 2, counted: 3,
            commands: SessionCommands(prepare: "reset"))
        #expect(
            platform.executables == [
                "/scripted/app", "/scripted/app", "/scripted/valgrind", "/scripted/valgrind", "/scripted/valgrind",
            ])
        #expect(
            platform.commands.map(\.role) == Array(repeating: .prepare, count: 5),
            "a prepare before every launch, counted ones too")
        #expect(platform.orphansSpared == 5, "orphans a prepare adopted are spared before counted launches too")
        #expect(collected.runs.map(\.index) == [1, 2])
        #expect(collected.countedRuns.map(\.index) == [1, 2, 3])
        #expect(collected.countedRuns.map { $0.instructions?.total } == [1_000, 1_001, 1_002])
        #expect(
            collected.countedRuns.allSatisfy {
                $0.status == .ok && $0.timeToReadyMs != nil && $0.timeToReadyMs == $0.timeToExitMs
            })
        for request in platform.requests.dropFirst(2) {
            // The timed launch's contract, plus what holds a count fixed; run to the exit, at 50 × the timeout.
            #expect(URL(fileURLWithPath: request.workDirectory).lastPathComponent.hasPrefix("counted-"))
            #expect(
                request.extraEnvironment[LaunchContract.Variable.trace] == request.workDirectory + "/"
                    + MeasureSession.traceFileName)
            #expect(request.extraEnvironment[LaunchContract.Variable.exitAfterLaunch] == "1")
            #expect(request.extraEnvironment[LaunchContract.Variable.sampler] == "0")
            #expect(request.extraEnvironment[LaunchContract.Variable.countInstructions] == "1")
            #expect(request.ready == .exit && request.timeoutSeconds == 1_000)
            #expect(request.arguments.last == "/scripted/app", "valgrind runs the program")
        }
    }

    @Test func aComparisonCountsBothSidesInABBAOrderAfterItsTimedLaunches() throws {
        let folder = try RunsFolder(replacing: scratch.file("compare.runs"))
        let base = scriptedRequest(
            runs: 1, executable: "base", folder: try folder.root.makeSubdirectory("base"), counted: 3)
        let head = scriptedRequest(
            runs: 1, executable: "head", folder: try folder.root.makeSubdirectory("head"), counted: 3)
        let platform = ScriptedPlatform([.ok(), .ok()] + (1...6).map { Self.counted(UInt64(100 + $0)) })
        var once = StopAfterFirstStage()
        let compared = try CompareSession.run(
            base: base, head: head, stages: [1], progress: nil, rule: &once, platform: platform)
        #expect(platform.executables == ["base", "head"] + Array(repeating: "/scripted/valgrind", count: 6))
        #expect(
            platform.requests.dropFirst(2).map { $0.arguments.last } == [
                "base", "head", "head", "base", "base", "head",
            ])
        #expect(compared.base.countedRuns.map { $0.instructions?.total } == [101, 104, 105])
        #expect(compared.head.countedRuns.map { $0.instructions?.total } == [102, 103, 106])
        #expect(compared.base.stopReason == nil && compared.head.stopReason == nil)
    }

    @Test func everyCountedLaunchFailingIsFailedRunsSaidToBeUnderValgrind() throws {
        let (collected, _) = try measure(
            [.ok(), Self.counted(0, code: 1, stderr: "==1== bad option\n"), Self.counted(0, code: 1)], runs: 1,
            counted: 2)
        #expect(collected.countedRuns.map(\.status) == [.failedExit, .failedExit])
        #expect(collected.countedRuns.first?.problem == "exited with code 1 under valgrind (stderr: ==1== bad option)")
        #expect(collected.countedRuns.first?.exitCode == 1)
        #expect(
            collected.countedRuns.first?.diagnosis
                == LaunchProblem(.failedExit(code: 1), stderrLine: "==1== bad option", isCounted: true))
        var plan = MeasurementPlan(
            name: "scripted", commandLine: ["launchprof", "measure"], command: ["/scripted/app"], runs: 1, warmup: 0,
            mode: .warm,
            ready: .exit, timeoutSeconds: 20)
        plan.countedLaunches = 2
        let report = MeasurementReport(plan: plan, collected: collected, budget: BudgetResolution())
        #expect(report.outcome.exitCode.rawValue == 2, "\(report.outcome.reason)")
    }

    @Test func aTracedProgramThatKeepsRunningIsCountedToItsReadyMarkThenEnded() throws {
        // The default ready point: the first frame, which the tracer marks, dumps, flushes and says `flushed`.
        var marked = ScriptedPlatform.Launch(termination: .stoppedAtReady)
        marked.dumpedAtMark = 5_000
        let folder = try RunsFolder(replacing: scratch.file("to-mark.runs"))
        let platform = ScriptedPlatform([.ok(), marked, marked, marked])
        let request = scriptedRequest(runs: 1, ready: nil, folder: folder.root, counted: 3)
        let collected = try MeasureSession.run(request, progress: nil, platform: platform)
        #expect(
            platform.requests.dropFirst().allSatisfy { $0.ready == .firstFrame }, "counted to the mark, not to exit")
        #expect(collected.countedRuns.map(\.status) == [.ok, .ok, .ok], "\(collected.countedRuns.map(\.problem))")
        #expect(collected.countedRuns.map { $0.instructions?.total } == [5_000, 5_000, 5_000])
        #expect(collected.countedRuns.map { $0.instructions?.gated } == [5_000, 5_000, 5_000])
        #expect(collected.countedRuns.allSatisfy { $0.timeToExitMs == nil && $0.timeToReadyMs != nil })
    }

    @Test func valgrindsOwnCrashIsTheCountedRunsProblemInOneLineAndTheOutcomeSaysIt() throws {
        var crashed = Self.counted(0, code: 1)
        crashed.instructions = nil
        crashed.valgrindLog = ValgrindFailureTests.sigsuspendCrash
        let (collected, _) = try measure([.ok(), crashed, crashed, crashed], runs: 1, counted: 3)
        let problem = try #require(collected.countedRuns.first?.problem)
        #expect(
            problem.hasPrefix(
                "valgrind-3.19.0 could not run app: VALGRIND INTERNAL ERROR: Valgrind received a signal 11 (SIGSEGV) - exiting in sigsuspend;"
            ), "\(problem)")
        #expect(!problem.contains("\n"))
        var plan = MeasurementPlan(
            name: "scripted", commandLine: ["launchprof", "measure"], command: ["/scripted/app"], runs: 1, warmup: 0,
            mode: .warm, ready: .exit, timeoutSeconds: 20)
        plan.countedLaunches = 3
        let report = MeasurementReport(plan: plan, collected: collected, budget: BudgetResolution())
        #expect(report.outcome.exitCode.rawValue == 2)
        #expect(
            report.outcome.reason.contains("could not run app: VALGRIND INTERNAL ERROR"), "\(report.outcome.reason)")
    }

    @Test func noCountedLaunchFollowsTimedLaunchesThatAllFailed() throws {
        let failing = ScriptedPlatform.Launch(termination: .exited(code: 4), readyMs: nil)
        let (collected, platform) = try measure([failing, failing], runs: 2, counted: 3)
        #expect(platform.executables == ["/scripted/app", "/scripted/app"])
        #expect(collected.countedRuns.isEmpty)
    }

    @Test func aCountedLaunchThatDoesNotExitOrWritesNoCountIsAFailedRunThatSaysWhy() throws {
        var hung = ScriptedPlatform.Launch(termination: .timedOut, readyMs: nil)
        hung.instructions = nil
        var silent = Self.counted(0)
        silent.instructions = nil
        let (collected, _) = try measure([.ok(), hung, silent], runs: 1, counted: 2)
        #expect(collected.countedRuns.map(\.status) == [.timedOut, .failedExit])
        #expect(
            collected.countedRuns.first?.problem
                == "did not exit or mark ready within 1000 s under valgrind (50 × --timeout); callgrind writes its "
                + "counts only at the exit or at the tracer's ready mark (LaunchTracer.markReady())"
        )
        #expect(collected.countedRuns.last?.problem?.hasPrefix("no instruction count in '") == true)
    }

    @Test func aPrepareThatFailsBeforeACountedLaunchStopsCountingKeepingTheCounts() throws {
        let (collected, platform) = try measure(
            [.ok(), Self.counted(7)], runs: 1, counted: 3, commands: SessionCommands(prepare: "reset"),
            prepareFailsFrom: 3)
        #expect(platform.requests.count == 2)
        #expect(collected.runs.count == 1 && collected.countedRuns.map { $0.instructions?.total } == [7])
        #expect(collected.stopReason?.hasSuffix("(before counted launch 2)") == true, "\(collected.stopReason ?? "")")
    }

    @Test func aCountedLaunchThatCannotStartStopsCountingNamingIt() throws {
        let (collected, _) = try measure(
            [.ok(), ScriptedPlatform.Launch(error: .spawnFailed(path: "/scripted/valgrind", code: 2))], runs: 1,
            counted: 3)
        #expect(collected.runs.count == 1 && collected.countedRuns.isEmpty)
        #expect(
            collected.stopReason?.hasPrefix("counted launch 1 could not be started: ") == true,
            "\(collected.stopReason ?? "")")
    }

    @Test(
        .enabled(if: valgrindCounter != nil, "valgrind is not installed (apt-get install valgrind)"),
        .disabled(if: BuiltProducts.areThreadSanitized, "valgrind cannot run a ThreadSanitizer binary"))
    func aProgramValgrindGivesUpOnNeedsObjcopyCheckedBeforeAnyLaunch() throws {
        // The fixture is a debug build, with DWARF 5 that valgrind 3.19 gives up on (where this valgrind reads it, nothing is needed).
        var counter = try #require(valgrindCounter)
        guard counter.debugInfoFailure(BuiltProducts.fixture) != nil else { return }
        try counter.checkCanCount(BuiltProducts.fixture)
        counter.objcopyPath = nil
        do {
            try counter.checkCanCount(BuiltProducts.fixture)
            Issue.record("accepted without objcopy")
        } catch {
            #expect(error.description.contains("apt-get install binutils"), "\(error)")
        }
        // A script is not probed: nothing is needed.
        let script = scratch.file("script.sh")
        try "#!/bin/sh\n".write(toFile: script, atomically: true, encoding: .utf8)
        try counter.checkCanCount(script)
    }
}
