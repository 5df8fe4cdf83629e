import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchTracing
import Testing
import _LaunchProfTestSupport

/// Where valgrind cannot run a program, one line says which valgrind, what it failed on
/// (its own words, from its log) and what to do; and a launch ended at its ready mark is
/// counted to the tracer's dump there. Logs and counts written by hand: no valgrind runs.
@Suite("Valgrind's failures and counts to the ready mark")
struct ValgrindFailureTests {
    let scratch = ScratchDirectory("valgrind-failure")
    let counter = InstructionCounter(valgrindPath: "/scripted/valgrind", valgrindVersion: "valgrind-3.19.0")

    /// valgrind 3.19's log when the Hummingbird hello-world server's main thread waits in
    /// `dispatchMain()` (its async main), cut to the lines that matter.
    static let sigsuspendCrash = """
        ==15004== Callgrind, a call-graph generating cache profiler
        ==15004== Command: /srv/HelloServer
        --15004-- VALGRIND INTERNAL ERROR: Valgrind received a signal 11 (SIGSEGV) - exiting
        --15004-- si_code=2;  Faulting address: 0x5272078;  sp: 0x1002f16d48

        valgrind: the 'impossible' happened:
           Killed by fatal signal

        sched status:
          running_tid=1

        Thread 1: status = VgTs_Runnable syscall 130 (lwpid 15004)
        ==15004==    at 0x6297301: sigsuspend (sigsuspend.c:26)
        ==15004==    by 0x5268787: _dispatch_sigsuspend (in /opt/swift/usr/lib/swift/linux/libdispatch.so)

        Thread 2: status = VgTs_Yielding (lwpid 15372)
        ==15004==    at 0x6363B42: clone (clone.S:83)

        """

    /// Writes `log` as valgrind's log of process `pid` in a new folder; returns the count's output prefix.
    func output(_ name: String, log: String, pid: Int32 = 15_004) throws -> String {
        let folder = scratch.file(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try log.write(toFile: folder + "/callgrind.\(pid).log", atomically: true, encoding: .utf8)
        return folder + "/callgrind"
    }

    @Test func aCrashInSigsuspendSaysWhatValgrindFailedOnAndHowToMakeTheServerCountable() throws {
        let prefix = try output("sigsuspend", log: Self.sigsuspendCrash)
        let line = try #require(counter.valgrindFailure(output: prefix, processID: 15_004, program: "/srv/HelloServer"))
        #expect(!line.contains("\n"))
        #expect(
            line.hasPrefix(
                "valgrind-3.19.0 could not run HelloServer: VALGRIND INTERNAL ERROR: Valgrind received a signal 11 "
                    + "(SIGSEGV) - exiting in sigsuspend; "), "\(line)")
        #expect(line.contains("dispatchMain()") && line.contains("semaphore"), "\(line)")
    }

    @Test func anotherCrashNamesItsFunctionAndTheLog() throws {
        let log = Self.sigsuspendCrash.replacingOccurrences(of: "sigsuspend (sigsuspend.c:26)", with: "memcpy (x.c:1)")
        let prefix = try output("other", log: log)
        let line = try #require(counter.valgrindFailure(output: prefix, processID: 15_004, program: "/srv/app"))
        #expect(line.contains("exiting in memcpy; valgrind crashed, not the program (its log: \(prefix).15004.log)"))
    }

    @Test func debugInformationValgrindGivesUpOnIsNamedWithTheBuildSettingsThatAvoidIt() throws {
        let log = """
            ==5237== Command: /srv/HelloServer
            ### unhandled dwarf2 abbrev form code 0x25
            ### unhandled dwarf2 abbrev form code 0x1b
            ==5237== Valgrind: debuginfo reader: ensure_valid failed:
            ==5237== Valgrind: I can't recover.  Giving up.  Sorry.

            """
        let prefix = try output("dwarf", log: log, pid: 5_237)
        let line = try #require(counter.valgrindFailure(output: prefix, processID: 5_237, program: "/srv/HelloServer"))
        #expect(
            line.hasPrefix(
                "valgrind-3.19.0 could not run HelloServer: its debug information (unhandled dwarf2 abbrev form code 0x25); "
            ), "\(line)")
        #expect(line.contains("-dwarf-version=4") && line.contains("objcopy --strip-debug"))
    }

    @Test func aProgramThatFailedByItselfOrLeftNoLogIsNotBlamedOnValgrind() throws {
        let prefix = try output(
            "own", log: "==9== Command: /srv/app\n==9== Events    : Ir\n==9== Collected : 123\n", pid: 9)
        #expect(counter.valgrindFailure(output: prefix, processID: 9, program: "/srv/app") == nil)
        #expect(counter.valgrindFailure(output: prefix, processID: 10, program: "/srv/app") == nil)
    }

    /// A callgrind file: `instructions` on `thread`, written at `trigger`.
    func callgrind(_ trigger: String, thread: Int, instructions: UInt64) -> String {
        "thread: \(thread)\ndesc: Trigger: \(trigger)\nevents: Ir\nfn=(1) main\n1 \(instructions)\ntotals: \(instructions)\n"
    }

    @Test func aLaunchEndedAtItsReadyMarkIsCountedToTheDumpThere() throws {
        let folder = scratch.file("to-mark")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Callgrind's dump at a client request is the requesting thread's alone: here the main thread's.
        let files = [
            "callgrind.7.1-01": callgrind(
                "Client Request: launchprof:milestone:runtimeInit", thread: 1, instructions: 100),
            "callgrind.7.2-01": callgrind(
                "Client Request: launchprof:milestone:firstFrame", thread: 1, instructions: 900),
            // After the mark: a later milestone, and the file cut short when launchprof ended the program.
            "callgrind.7.3-01": callgrind(
                "Client Request: launchprof:milestone:fullyDrawn", thread: 1, instructions: 7),
            "callgrind.7-01": "events: Ir\nfn=(1",
            // A process it started, cut short too: left out.
            "callgrind.8-01": "thread: 1\nevents: Ir\nfn=(",
        ]
        for (name, text) in files { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        try "==7== Command: app\n==8== Command: child\n".write(
            toFile: folder + "/callgrind.7.log", atomically: true, encoding: .utf8)
        let counts = try counter.collect(output: folder + "/callgrind", processID: 7, toMark: .firstFrame)
        #expect(counts.total == 1_000)
        #expect(counts.mainThread == 1_000)
        #expect(counts.threads == [1: 1_000])
        #expect(counts.phases?[.timeToFirstFrame] == 1_000)
        #expect(counts.gated == 1_000)
        // Run to its exit instead, what ran after the mark counts too.
        #expect(try counter.collect(output: folder + "/callgrind", processID: 7).total > 1_000)
        // To a later mark, the dumps up to it.
        #expect(try counter.collect(output: folder + "/callgrind", processID: 7, toMark: .fullyDrawn).total == 1_007)
        // No dump at the mark: said so.
        do {
            _ = try counter.collect(output: folder + "/callgrind", processID: 7, toMark: .main)
            Issue.record("a count with no dump at its mark was read")
        } catch {
            #expect("\(error)".contains("callgrind wrote no count at the ready mark (main)"), "\(error)")
        }
    }

    @Test func aReadyMarkMadeOnAnotherThreadIsRefusedSayingWhereToMarkIt() throws {
        // A Hummingbird server that marks ready in onServerRunning marks on an event loop thread:
        // the dump there counts that thread alone, a different one in each launch.
        let folder = scratch.file("other-thread")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try callgrind("Client Request: launchprof:milestone:runtimeInit", thread: 1, instructions: 16_367_554).write(
            toFile: folder + "/callgrind.9.1-01", atomically: true, encoding: .utf8)
        try callgrind("Client Request: launchprof:milestone:firstFrame", thread: 8, instructions: 1_280_000).write(
            toFile: folder + "/callgrind.9.2-08", atomically: true, encoding: .utf8)
        do {
            _ = try counter.collect(output: folder + "/callgrind", processID: 9, toMark: .firstFrame)
            Issue.record("a mark made on thread 8 was counted")
        } catch {
            let line = "\(error)"
            #expect(!line.contains("\n"))
            #expect(line.contains("the ready mark was made on thread 8, not the main thread"), "\(line)")
            #expect(line.contains("LaunchTracer.markReady() on the main thread"), "\(line)")
        }
    }
}
