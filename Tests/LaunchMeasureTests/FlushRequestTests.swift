import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchTracing
import Testing
import _LaunchProfTestSupport

/// A launch launchprof sees ready itself asks a listening tracer for its trace on the
/// control pipe (fd 4); a request the tracer never answers ends the launch after the
/// wait without a trace, and says so (``LaunchResult/flushUnanswered``, then the
/// run's ``RunRecord/flushUnanswered`` and a warning in the terminal report).
@Suite("Launcher: the flush request", .serialized)
struct FlushRequestTests {
    let scratch = ScratchDirectory("flush-request")

    /// Runs `script` with `/bin/sh -c`, ready when it prints `up`.
    func launch(_ script: String) throws -> LaunchResult {
        try Launcher.launch(
            LaunchRequest(
                executable: "/bin/sh", arguments: ["-c", script], ready: .stdout(pattern: "^up$"),
                timeoutSeconds: 60, workDirectory: scratch.file("run")))
    }

    @Test func aRequestTheTracerNeverAnswersEndsTheLaunchAndSaysSo() throws {
        // Says it listens, then never reads its control pipe: the request goes unanswered.
        let outcome = try launch("echo listening >&3; echo up; exec sleep 60")
        #expect(outcome.termination == .stoppedAtReady)
        #expect(outcome.flushUnanswered)
        #expect(outcome.readyLines.map(\.text) == ["listening"])
    }

    @Test func anAnsweredRequestIsNotFlagged() throws {
        // The control pipe comes non-blocking, as the tracer finds it (it makes it blocking to wait on it).
        let answer =
            "import os, fcntl; fcntl.fcntl(4, fcntl.F_SETFL, fcntl.fcntl(4, fcntl.F_GETFL) & ~os.O_NONBLOCK); "
            + "os.read(4, 6) == b'flush\\n' and os.write(3, b'flushed\\n')"
        let outcome = try launch("echo listening >&3; echo up; python3 -c \"\(answer)\"; exec sleep 60")
        #expect(outcome.termination == .stoppedAtReady)
        #expect(!outcome.flushUnanswered)
        #expect(outcome.readyLines.map(\.text) == ["listening", "flushed"])
    }

    @Test func aTracerThatDoesNotListenIsNotAsked() throws {
        let outcome = try launch("echo up; exec sleep 60")
        #expect(outcome.termination == .stoppedAtReady)
        #expect(!outcome.flushUnanswered)
    }

    @Test func theRunRecordsItAndTheTerminalReportWarnsNamingTheRun() throws {
        var unanswered = ScriptedPlatform.Launch.ok()
        unanswered.flushUnanswered = true
        let folder = try RunsFolder(replacing: scratch.file("flag.runs"))
        let platform = ScriptedPlatform([.ok(), unanswered])
        let collected = try MeasureSession.run(
            scriptedRequest(runs: 2, folder: folder.root), progress: nil, platform: platform)
        #expect(collected.runs.map(\.flushUnanswered) == [nil, true])
        #expect(collected.runs.map(\.status) == [.ok, .ok])
    }
}
