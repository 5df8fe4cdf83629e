import LaunchAnalysis
import LaunchTracing
import Testing

/// Callgrind's output format, read back: totals, the dump's trigger, and
/// instructions per function with name compression, relative positions and calls.
@Suite("Callgrind files")
struct CallgrindFileTests {
    /// Written as callgrind writes it (`--dump-instr=no --separate-threads=yes`):
    /// main runs 10 + 5 instructions itself and calls parse (inclusive 70, twice);
    /// parse runs 60 itself and calls helper (inclusive 10); helper runs 10.
    static let text = """
        # callgrind format
        version: 1
        creator: callgrind-3.19.0
        pid: 4242
        cmd:  ./app
        part: 1
        thread: 1

        desc: Timerange: Basic block 0 - 99
        desc: Trigger: Client Request: launchprof:milestone:firstFrame

        positions: line
        events: Ir
        summary: 85

        ob=(1) /app
        fl=(1) main.swift
        fn=(1) $s3app4mainyyF
        12 10
        +2 5
        cfl=(2) parser.swift
        cfn=(2) parse
        calls=2 30
        * 70
        fl=(2)
        fn=(2)
        30 60
        cfn=(3) helper
        calls=1 40
        -1 10
        fn=(3)
        40 10

        totals: 85
        """

    /// `(below main)` in libc calls `(below main)` in the program (two objects, one
    /// name), which runs everything: read as one function, its inclusive count is
    /// the whole file, not twice it (python3 showed 114 M of a 57 M launch).
    @Test func oneNameInTwoObjectsThatCallEachOtherIsNeverMoreThanTheWholeFile() throws {
        let text = """
            # callgrind format
            version: 1
            positions: line
            events: Ir

            ob=(1) /lib/libc.so.6
            fl=(1) start.c
            fn=(1) (below main)
            1 2
            cob=(2) /usr/bin/app
            cfl=(2) ???
            cfn=(1)
            calls=1 1
            1 98
            ob=(2)
            fl=(2)
            fn=(1)
            1 8
            cfn=(3) work
            calls=1 1
            1 90
            fn=(3)
            1 90

            totals: 100
            """
        let file = try CallgrindFile(parsing: text)
        #expect(file.instructions == 100)
        let below = try #require(file.functions["(below main)"])
        #expect(below.selfInstructions == 10)
        #expect(below.inclusiveInstructions == 100, "\(below)")
        #expect(file.functions["work"]?.inclusiveInstructions == 90)
    }

    @Test func totalsTriggerThreadAndFunctionsAreRead() throws {
        let file = try CallgrindFile(parsing: Self.text)
        #expect(file.instructions == 85)
        #expect(file.thread == 1)
        #expect(file.trigger == "launchprof:milestone:firstFrame")
        #expect(file.milestoneID == "firstFrame")
        let main = try #require(file.functions["$s3app4mainyyF"])
        #expect(main.selfInstructions == 15)
        #expect(main.inclusiveInstructions == 85)
        #expect(main.file == "main.swift")
        let parse = try #require(file.functions["parse"])
        #expect(parse.selfInstructions == 60)
        #expect(parse.inclusiveInstructions == 70)
        #expect(parse.file == "parser.swift")
        #expect(file.functions["helper"]?.selfInstructions == 10)
        // Self costs add up to the file's total.
        #expect(file.functions.values.map(\.selfInstructions).reduce(0, +) == file.instructions)
    }

    @Test func aFileWithoutTotalsSumsItsSelfCosts() throws {
        let file = try CallgrindFile(parsing: "events: Ir\nfn=(1) f\n1 7\n2 3\n")
        #expect(file.instructions == 10)
        #expect(file.trigger == "")
        #expect(file.milestoneID == nil)
    }

    @Test func aCostThatIsNotANumberIsAnErrorNamingItsLine() {
        #expect(throws: CallgrindFile.FormatError(line: 3, reason: "'x7' is not an instruction count")) {
            try CallgrindFile(parsing: "events: Ir\nfn=(1) f\n1 x7\n")
        }
    }

    /// A launch's files: dumps at runtimeInit, main, the hooks and the first frame
    /// on the main thread, then what each thread ran to the end.
    static func file(_ trigger: String, thread: Int, _ instructions: UInt64, function: String = "f") throws
        -> CallgrindFile
    {
        try CallgrindFile(
            parsing: """
                thread: \(thread)
                desc: Trigger: \(trigger)
                events: Ir
                fn=(1) \(function)
                1 \(instructions)
                totals: \(instructions)
                """)
    }

    @Test func phasesSplitTheMainThreadAtEachMilestone() throws {
        let marks: [(Milestone, UInt64)] = [
            (.runtimeInit, 1_000), (.main, 200), (.willFinishLaunchingBegin, 30), (.willFinishLaunchingEnd, 40),
            (.didFinishLaunchingBegin, 5), (.didFinishLaunchingEnd, 700), (.didBecomeActive, 9), (.firstFrame, 11),
        ]
        var files = try marks.map {
            try Self.file("Client Request: launchprof:milestone:\($0.0.id)", thread: 1, $0.1, function: "hook")
        }
        files.append(try Self.file("Program termination", thread: 1, 50_000, function: "after"))
        files.append(try Self.file("Program termination", thread: 2, 7_000, function: "worker"))
        let counts = InstructionCounts(files: files, valgrindVersion: "valgrind-3.19.0")
        let phases = try #require(counts.phases)
        #expect(phases[.loader] == 1_000)
        #expect(phases[.staticInit] == 200)
        #expect(phases[.appInit] == 30)
        #expect(phases[.willFinishLaunching] == 40)
        #expect(phases[.didFinishLaunching] == 700)
        #expect(phases[.initialFrame] == 20)  // didBecomeActive's dump and the frame's
        #expect(phases[.timeToFirstFrame] == 1_995)
        #expect(phases[.extended] == nil)
        #expect(counts.gated == 1_995)
        #expect(counts.mainThread == 51_995)
        #expect(counts.total == 58_995)
        // Functions to the first frame on the main thread only.
        #expect(counts.functions.map(\.name) == ["hook"])
        #expect(counts.functions.first?.inclusiveInstructions == 1_995)
    }

    @Test func aProgramWithoutMarksIsCountedToItsExitOnEveryThread() throws {
        let files = [
            try Self.file("Program termination", thread: 1, 900, function: "main"),
            try Self.file("Program termination", thread: 2, 100, function: "worker"),
        ]
        let counts = InstructionCounts(files: files, valgrindVersion: "valgrind-3.19.0")
        #expect(counts.phases == nil)
        #expect(counts.gated == 1_000)
        #expect(counts.gatedDescription == "instructions to exit, every thread")
        #expect(counts.functions.map(\.name) == ["main", "worker"])
    }
}
