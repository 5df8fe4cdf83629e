import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchTracing
import Testing
import _LaunchProfTestSupport

/// valgrind, where it is installed.
let valgrindCounter = try? InstructionCounter.locate()

/// Real launches counted under valgrind: programs nobody here wrote, and an
/// instrumented fixture whose milestones split the count into phases.
@Suite(
    "Instruction counter", .serialized,
    .enabled(if: valgrindCounter != nil, "valgrind is not installed (apt-get install valgrind)"))
struct InstructionCounterTests {
    static var counter: InstructionCounter? { valgrindCounter }
    let scratch = ScratchDirectory("instruction-tests")

    /// Launches `program arguments` under callgrind and returns its counts.
    func count(_ program: String, _ arguments: [String], run: String) throws -> InstructionCounts {
        let counter = try #require(Self.counter)
        let folder = scratch.file(run)
        let route = try counter.prepare(program: program, in: folder)
        let command = route.wrapping(
            counter.command(program: program, arguments: arguments, output: folder + "/callgrind"),
            program: program, workingDirectoryVariable: ProcessEnvironment.value("PWD"))
        let outcome = try Launcher.launch(
            LaunchRequest(
                executable: command[0], arguments: Array(command.dropFirst()),
                extraEnvironment: InstructionCounter.environment(existing: []),
                ready: .exit, timeoutSeconds: 600, workDirectory: folder))
        #expect(outcome.termination == .exited(code: 0), "stderr: \(ScratchDirectory.read(outcome.stderrPath))")
        return try counter.collect(output: folder + "/callgrind", processID: outcome.processID)
    }

    /// Debian's interpreter, which nobody here wrote; skipped where it is not installed.
    static let python = "/usr/bin/python3"

    @Test func identicalLaunchesOfARealProgramCountAlmostTheSameAndTheGateSeesTwoPercent() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python), "\(Self.python) is needed")
        func three(_ script: String, _ tag: String) throws -> [UInt64] {
            try (1...3).map { try count(Self.python, ["-c", script], run: "\(tag)-\($0)").total }
        }
        let base = try three("import json", "base")
        // Each loop turn is about 590 instructions: 1,900 turns are about +2 % of 57 M, 300 about +0.3 %.
        let more = try three("import json; s = sum(i * i for i in range(1900))", "more")
        let little = try three("import json; s = sum(i * i for i in range(300))", "little")
        // Identical launches (PYTHONHASHSEED fixed): the same count to within 0.01 %.
        let spread = Double(base.max()! - base.min()!) / Double(base.min()!)
        #expect(spread < 1e-4, "identical launches: \(base)")
        #expect(try InstructionGate.decide(base: base, head: base.reversed()).status == .pass)
        let regression = try InstructionGate.decide(base: base, head: more)
        #expect(regression.status == .regression, "\(base) → \(more)")
        #expect(regression.shift > 0.01 && regression.shift < 0.04)
        #expect(try InstructionGate.decide(base: base, head: little).status == .pass, "\(base) → \(little)")
    }

    /// Not in a ThreadSanitizer build: valgrind cannot run a sanitized fixture (the
    /// runtime's CHECK at sanitizer_linux_libcdep.cpp:730 fails on valgrind's vDSO,
    /// then SIGILL). The other tests count programs nobody here built.
    @Test(.disabled(if: BuiltProducts.areThreadSanitized, "valgrind cannot run a ThreadSanitizer binary"))
    func anInstrumentedLaunchIsSplitIntoPhasesOnItsMainThread() throws {
        // The fixture is a debug build with DWARF valgrind 3.19 refuses: it is counted at its own
        // path, through a copy without debug information mounted over it.
        let first = try count(BuiltProducts.fixture, ["counted-work", "20000"], run: "fixture-1")
        let second = try count(BuiltProducts.fixture, ["counted-work", "20000"], run: "fixture-2")
        for counts in [first, second] {
            let phases = try #require(counts.phases, "no milestone dumps: \(counts)")
            let frame = try #require(phases[.timeToFirstFrame])
            let hook = try #require(phases[.didFinishLaunching])
            // 50 spans of 20,000 steps, each several instructions.
            #expect(hook > 1_000_000)
            #expect(hook < frame && frame <= counts.mainThread && counts.mainThread <= counts.total)
            #expect(counts.gated == frame)
            #expect(counts.valgrindVersion.hasPrefix("valgrind-"))
            #expect(
                counts.functions.contains { $0.name.contains("fixedWork") },
                "\(counts.functions.prefix(10).map(\.name))")
        }
        // Identical launches: the gated count repeats to within 0.1 %.
        let a = Double(first.gated)
        let b = Double(second.gated)
        #expect(abs(a - b) / min(a, b) <= 0.001, "\(first.gated) vs \(second.gated)")
        #expect(first.phases?[.didFinishLaunching] == second.phases?[.didFinishLaunching])
    }

    @Test func aLaunchWithoutCountsIsAnErrorThatSaysWhy() throws {
        let counter = try #require(Self.counter)
        let folder = scratch.file("none")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "==7== Valgrind: I can't recover.  Giving up.  Sorry.\n".write(
            toFile: folder + "/callgrind.7.log", atomically: true, encoding: .utf8)
        #expect(
            throws: LaunchError.instructionCountMissing(
                path: folder + "/callgrind", reason: "valgrind: Valgrind: I can't recover.  Giving up.  Sorry.")
        ) {
            try counter.collect(output: folder + "/callgrind", processID: 7)
        }
    }
}

/// Where valgrind gives up on a binary's debug information and it cannot be hidden
/// at the binary's own path, one line says so before any launch.
@Suite(
    "Instruction counter: refusal",
    .enabled(if: valgrindCounter != nil, "valgrind is not installed (apt-get install valgrind)"))
struct InstructionCounterRefusalTests {
    @Test(.disabled(if: BuiltProducts.areThreadSanitized, "valgrind cannot run a ThreadSanitizer binary"))
    func aBinaryValgrindCannotReadIsRefusedWithValgrindsVersionAndWhatToDo() throws {
        let found = try #require(valgrindCounter)
        guard let failure = found.debugInfoFailure(BuiltProducts.fixture) else { return }  // this valgrind reads it
        // Without unshare, the binary cannot be counted as itself.
        let counter = InstructionCounter(
            valgrindPath: found.valgrindPath, valgrindVersion: found.valgrindVersion, objcopyPath: found.objcopyPath,
            unsharePath: nil)
        do {
            try counter.checkCanCount(BuiltProducts.fixture)
            Issue.record("a binary valgrind gives up on was accepted without unshare")
        } catch {
            let line = error.description
            #expect(!line.contains("\n"))
            #expect(
                line.contains(found.valgrindVersion + " gives up on its debug information (" + failure + ")"), "\(line)"
            )
            #expect(line.contains("unshare") && line.contains("-dwarf-version=4"), "\(line)")
        }
        // A program without debug information is counted as it is.
        #expect(
            try found.prepare(program: "/bin/true", in: ScratchDirectory("instruction-refusal").file("true")) == .direct
        )
    }
}
