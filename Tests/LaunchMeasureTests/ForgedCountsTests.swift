import Foundation
import LaunchAnalysis
import LaunchMeasure
import Testing
import _LaunchProfTestSupport

/// Only the counts of processes valgrind ran for the launch are summed, and never
/// past 2^64: a file another process left in the folder is not counted.
@Suite("Forged counts")
struct ForgedCountsTests {
    let scratch = ScratchDirectory("forged-counts")
    /// A counter whose tools are never run: `collect` only reads files.
    let counter = InstructionCounter(valgrindPath: "/nonexistent/valgrind", valgrindVersion: "valgrind-3.19.0")

    /// A callgrind file of one thread that ran `instructions`.
    static func file(_ instructions: UInt64) -> String {
        "events: Ir\nfn=(1) main\n1 \(instructions)\ntotals: \(instructions)\n"
    }

    @Test func filesOfProcessesValgrindDidNotRunAreNotCounted() throws {
        let folder = scratch.file("forged")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Valgrind ran 7, and 9, a child it forked (its lines are in 7's log).
        try scratch.write(
            "==7== Command: prog\n==9== \n==9== Events    : Ir\n==7== Events    : Ir\n", to: "forged/callgrind.7.log")
        try scratch.write(Self.file(1_000), to: "forged/callgrind.7-01")
        try scratch.write(Self.file(200), to: "forged/callgrind.9-01")
        // 8 is no process of the launch: a file the program wrote there.
        try scratch.write(Self.file(5_000_000), to: "forged/callgrind.8-01")
        #expect(InstructionCounter.launchProcesses(output: folder + "/callgrind") == [7, 9])
        let counts = try counter.collect(output: folder + "/callgrind", processID: 7)
        #expect(counts.total == 1_200)
        #expect(counts.childProcesses == 200)
    }

    @Test func countsThatAddUpPast64BitsAreRefused() throws {
        let folder = scratch.file("overflow")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try scratch.write("==7== Command: prog\n==9== Events    : Ir\n", to: "overflow/callgrind.7.log")
        try scratch.write(Self.file(UInt64.max / 2 + 1), to: "overflow/callgrind.7-01")
        try scratch.write(Self.file(UInt64.max / 2 + 1), to: "overflow/callgrind.9-01")
        #expect(
            throws: LaunchError.instructionCountMissing(
                path: folder + "/callgrind", reason: "the counts add up past 2^64: not counts callgrind wrote")
        ) {
            try counter.collect(output: folder + "/callgrind", processID: 7)
        }
    }
}
