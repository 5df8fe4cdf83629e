import Foundation
import LaunchAnalysis
import LaunchMeasure
import Testing
import _LaunchProfTestSupport

/// A counted launch must behave as the timed ones did, or its count is refused.
@Suite("Counted launch check")
struct CountedLaunchCheckTests {
    let scratch = ScratchDirectory("counted-check")

    /// A runs folder for the check to read through; these records' files lie outside it, where they stay.
    func runs() throws -> OwnedDirectory { try RunsFolder(replacing: scratch.file("check.runs")).root }

    /// A record of a launch that printed `output` and ended with `status` (`exitCode` for a failed exit),
    /// by itself, or, `endedAtReady`, ended by launchprof at ready (no exit time).
    func record(
        _ name: String, printed output: String, status: RunRecord.Status = .ok, exitCode: Int32? = nil,
        endedAtReady: Bool = false
    ) throws -> RunRecord {
        let path = try scratch.write(output, to: name + ".txt")
        var record = RunRecord(index: 1, isWarmup: false, status: status, exitCode: exitCode, stdoutPath: path)
        record.timeToExitMs = endedAtReady ? nil : 5
        return record
    }

    @Test func whatAServerEndedAtReadyPrintedIsNotCompared() throws {
        // Ended at its ready mark, each launch printed what it had by then: that depends on timing.
        let timed = try [
            record("s1", printed: "serving\n", endedAtReady: true),
            record("s2", printed: "serving\n", endedAtReady: true),
        ]
        #expect(
            CountedLaunchCheck.difference(
                counted: try record("sc", printed: "", endedAtReady: true), timed: timed, in: try runs())
                == nil)
        let exited = try [record("e1", printed: "x\n"), record("e2", printed: "x\n")]
        #expect(
            CountedLaunchCheck.difference(
                counted: try record("ec", printed: "", endedAtReady: true), timed: exited, in: try runs())
                == nil)
    }

    @Test func theSameStatusAndBytesPass() throws {
        let timed = try [record("t1", printed: "venv 2\n"), record("t2", printed: "venv 2\n")]
        #expect(
            CountedLaunchCheck.difference(counted: try record("c", printed: "venv 2\n"), timed: timed, in: try runs())
                == nil)
    }

    @Test func otherBytesThanEveryTimedLaunchPrintedAreRefused() throws {
        let timed = try [record("t1", printed: "venv 2\n"), record("t2", printed: "venv 2\n")]
        let reason = try #require(
            CountedLaunchCheck.difference(counted: try record("c", printed: "base 0\n"), timed: timed, in: try runs()))
        #expect(reason == "its stdout (7 bytes) differs from the 7 bytes every timed launch printed")
        // Timed launches that printed different bytes themselves say nothing about the counted one.
        let varied = try [record("v1", printed: "a\n"), record("v2", printed: "b\n")]
        #expect(
            CountedLaunchCheck.difference(counted: try record("c2", printed: "c\n"), timed: varied, in: try runs())
                == nil)
    }

    @Test func anotherExitStatusIsRefused() throws {
        let timed = try [record("t1", printed: "x\n"), record("t2", printed: "x\n")]
        let failed = try record("c", printed: "x\n", status: .failedExit, exitCode: 3)
        #expect(
            CountedLaunchCheck.difference(counted: failed, timed: timed, in: try runs())
                == "it exited with status 3, the timed launches with 0")
        // A counted launch that crashed has no exit status to compare: its own problem says what happened.
        #expect(
            CountedLaunchCheck.difference(
                counted: try record("d", printed: "", status: .crashed), timed: timed, in: try runs()) == nil)
    }

    @Test func theFilesAreReadWhereTheyAreBeforeTheRunsFolderIsCommitted() throws {
        // Records name a run's files where the commit will put them; until then they are in the staging folder.
        let folder = try RunsFolder(replacing: scratch.file("staged.runs"))
        defer { folder.discard() }
        func staged(_ name: String, printed output: String) throws -> RunRecord {
            try output.write(toFile: folder.root.path + "/" + name, atomically: false, encoding: .utf8)
            var record = RunRecord(
                index: 1, isWarmup: false, status: .ok, stdoutPath: folder.root.finalPath(of: name))
            record.timeToExitMs = 5
            return record
        }
        let timed = try [staged("t1.txt", printed: "same\n"), staged("t2.txt", printed: "same\n")]
        #expect(
            CountedLaunchCheck.difference(
                counted: try staged("c.txt", printed: "other\n"), timed: timed, in: folder.root)
                == "its stdout (6 bytes) differs from the 5 bytes every timed launch printed")
    }
}
