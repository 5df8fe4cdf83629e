import LaunchTracing

/// The instructions one launch ran, counted under valgrind's callgrind (LaunchMeasure's
/// `InstructionCounter` runs it; no command asks for it yet): exact and repeatable, unlike
/// time, for the same binary, inputs and environment, whatever else the machine is doing.
public struct InstructionCounts: Sendable, Codable, Equatable {
    /// Every thread's instructions, from the start of the process to its exit,
    /// and those of the processes it started (valgrind follows them).
    public var total: UInt64
    /// The main thread's (the process's first thread), start to exit.
    public var mainThread: UInt64
    /// Each thread of the launched process, start to exit, by callgrind's thread
    /// number (1 is the main thread); nil in reports written before it was recorded.
    public var threads: [Int: UInt64]?
    /// The processes the launch started (valgrind follows them), together; nil in
    /// reports written before it was recorded.
    public var childProcesses: UInt64?
    /// For an instrumented program (the tracer has callgrind dump at each
    /// milestone): the main thread's instructions per phase, totals included
    /// (`timeToFirstFrame` is start → first frame); nil otherwise.
    public var phases: [Phase: UInt64]?
    /// The functions that ran the most instructions, inclusive of what they
    /// called, most first: on the main thread to the first frame for an
    /// instrumented program, in the whole process otherwise.
    public var functions: [FunctionInstructions]
    /// The valgrind that counted (`valgrind --version`): a different valgrind,
    /// libc or Swift runtime changes counts.
    public var valgrindVersion: String

    /// One function's instructions.
    public struct FunctionInstructions: Sendable, Codable, Equatable {
        /// Its name (Swift names demangled where a demangler was found).
        public var name: String
        /// Its source file, when the binary's symbols name one.
        public var file: String?
        /// Instructions run in it.
        public var selfInstructions: UInt64
        /// Instructions run in it and what it called.
        public var inclusiveInstructions: UInt64

        /// Makes a row.
        public init(name: String, file: String? = nil, selfInstructions: UInt64, inclusiveInstructions: UInt64) {
            self.name = name
            self.file = file
            self.selfInstructions = selfInstructions
            self.inclusiveInstructions = inclusiveInstructions
        }
    }

    /// How many functions a run keeps.
    public static let functionLimit = 200

    /// The counts of one launch from callgrind's files: the launched process's
    /// `files` in the order callgrind wrote them (dumps in order, then the files
    /// written at its end), and `otherProcesses`, the files of the processes it started.
    public init(
        files: [CallgrindFile], otherProcesses: [CallgrindFile] = [], valgrindVersion: String,
        functionLimit: Int = InstructionCounts.functionLimit
    ) {
        self.valgrindVersion = valgrindVersion
        // Saturating: counts read back from a stored report are not known to fit.
        total = (files + otherProcesses).reduce(0) { $0.addingClamped($1.instructions) }
        let main = files.filter { ($0.thread ?? 1) == 1 }
        mainThread = main.reduce(0) { $0.addingClamped($1.instructions) }
        threads = files.reduce(into: [Int: UInt64]()) {
            $0[$1.thread ?? 1] = ($0[$1.thread ?? 1] ?? 0).addingClamped($1.instructions)
        }
        childProcesses = otherProcesses.reduce(0) { $0.addingClamped($1.instructions) }

        // The main thread's dumps, each counting from the previous one: a phase is
        // what ran after its first milestone's dump up to its last milestone's.
        var cumulative: [Milestone: UInt64] = [:]
        var running: UInt64 = 0
        var inLaunch: [CallgrindFile] = []
        var reachedFrame = false
        for file in main {
            running = running.addingClamped(file.instructions)
            if !reachedFrame { inLaunch.append(file) }
            guard let id = file.milestoneID, let milestone = Milestone(id: id) else { continue }
            if cumulative[milestone] == nil { cumulative[milestone] = running }
            if milestone == .firstFrame { reachedFrame = true }
        }
        if cumulative.isEmpty {
            phases = nil
            inLaunch = files + otherProcesses
        } else {
            var phases: [Phase: UInt64] = [:]
            for (phase, from, to) in Phase.consecutive {
                let start = from == .spawn ? 0 : cumulative[from]
                if let start, let end = cumulative[to], end >= start { phases[phase] = end - start }
            }
            phases[.timeToFirstFrame] = cumulative[.firstFrame]
            phases[.timeToFullyDrawn] = cumulative[.fullyDrawn]
            if cumulative[.firstFrame] == nil { phases[.timeToBackgroundReady] = cumulative[.didFinishLaunchingEnd] }
            self.phases = phases
        }

        var functions: [String: CallgrindFile.FunctionCost] = [:]
        for file in inLaunch {
            for (name, cost) in file.functions {
                var sum = functions[name] ?? .init(file: cost.file)
                sum.selfInstructions = sum.selfInstructions.addingClamped(cost.selfInstructions)
                sum.inclusiveInstructions = sum.inclusiveInstructions.addingClamped(cost.inclusiveInstructions)
                functions[name] = sum
            }
        }
        self.functions =
            functions
            .map {
                FunctionInstructions(
                    name: $0.key, file: $0.value.file, selfInstructions: $0.value.selfInstructions,
                    inclusiveInstructions: $0.value.inclusiveInstructions)
            }
            .sorted { ($0.inclusiveInstructions, $1.name) > ($1.inclusiveInstructions, $0.name) }
            .prefix(functionLimit).map { $0 }
    }

    /// The count a gate decides on: the main thread's instructions to the first
    /// frame (or, launched into the background, to the end of the hooks) for an
    /// instrumented program — what the user waits for, without the background
    /// work an exit-after-launch cuts off at a point that depends on timing — and
    /// the whole process's instructions to its exit otherwise.
    public var gated: UInt64 {
        phases?[.timeToFirstFrame] ?? phases?[.timeToBackgroundReady] ?? total
    }

    /// What ``gated`` counts, for reports: `main thread to first frame`…
    public var gatedDescription: String {
        if phases?[.timeToFirstFrame] != nil { return "main-thread instructions to the first frame" }
        if phases?[.timeToBackgroundReady] != nil { return "main-thread instructions to the end of the launch hooks" }
        return "instructions to exit, every thread"
    }
}
