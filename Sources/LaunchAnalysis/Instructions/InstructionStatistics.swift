import LaunchTracing

/// The instruction counts of a measurement's counted launches, summarised
/// (``LaunchProfile/instructions``): what ``InstructionGate`` decides on.
public struct InstructionStatistics: Sendable, Codable, Equatable {
    /// What ``gated`` counts: the main thread to the first frame, or every thread to exit.
    public var gatedDescription: String
    /// The gated count per counted launch, in run order.
    public var gatedValues: [UInt64]
    /// The gated count over launches.
    public var gated: Summary
    /// How much identical launches differed: max ÷ min − 1 of the gated count.
    public var spread: Double
    /// The main thread's instructions per phase, median over launches.
    public var phases: [Phase: Double]
    /// Every thread's instructions, and the processes started, median over launches.
    public var totalMedian: Double
    /// The functions with the most inclusive instructions, medians over the
    /// launches that ran them, most first (at most ``functionLimit``).
    public var functions: [FunctionStatistics]
    /// The valgrind that counted.
    public var valgrindVersion: String

    /// One function's instructions over launches.
    public struct FunctionStatistics: Sendable, Codable, Equatable {
        /// Its name, demangled where possible.
        public var name: String
        /// Its source file, when the symbols name one.
        public var file: String?
        /// Median inclusive instructions (0 in launches that did not run it).
        public var inclusiveMedian: Double
        /// Median instructions in the function itself.
        public var selfMedian: Double
    }

    /// How many functions a profile keeps.
    public static let functionLimit = 200

    /// The statistics of the successful counted runs that were counted; nil when none was.
    public init?(_ runs: [RunRecord]) {
        let counted = runs.compactMap(\.instructions)
        guard let first = counted.first, let gated = Summary.of(counted.map { Double($0.gated) }) else { return nil }
        gatedDescription = first.gatedDescription
        gatedValues = counted.map(\.gated)
        self.gated = gated
        spread = gated.min > 0 ? gated.max / gated.min - 1 : 0
        var phases: [Phase: Double] = [:]
        for phase in Phase.allCases {
            let values = counted.compactMap { $0.phases?[phase] }.map { Double($0) }
            if values.count == counted.count { phases[phase] = Summary.median(values.sorted()) }
        }
        self.phases = phases
        totalMedian = Summary.median(counted.map { Double($0.total) }.sorted())
        var byName: [String: (file: String?, inclusive: [Double], own: [Double])] = [:]
        for launch in counted {
            // One value per launch and name: demangled names can repeat (two specialisations
            // of one generic function read the same), and their instructions are added.
            var own: [String: (file: String?, inclusive: UInt64, own: UInt64)] = [:]
            for function in launch.functions {
                var entry = own[function.name] ?? (function.file, 0, 0)
                entry.inclusive = entry.inclusive.addingClamped(function.inclusiveInstructions)
                entry.own = entry.own.addingClamped(function.selfInstructions)
                own[function.name] = entry
            }
            for (name, function) in own {
                var entry = byName[name] ?? (function.file, [], [])
                entry.inclusive.append(Double(function.inclusive))
                entry.own.append(Double(function.own))
                byName[name] = entry
            }
        }
        func median(_ values: [Double]) -> Double {
            Summary.median((values + Array(repeating: 0, count: counted.count - values.count)).sorted())
        }
        functions = byName.map {
            FunctionStatistics(
                name: $0.key, file: $0.value.file, inclusiveMedian: median($0.value.inclusive),
                selfMedian: median($0.value.own))
        }
        .sorted { ($0.inclusiveMedian, $1.name) > ($1.inclusiveMedian, $0.name) }
        .prefix(Self.functionLimit).map { $0 }
        valgrindVersion = first.valgrindVersion
    }
}

/// Why the instruction count changed between two measurements, function by
/// function: a deterministic differential profile of the launch.
public struct InstructionComparison: Sendable, Codable, Equatable {
    /// The deterministic gate's decision (``InstructionGate``).
    public var decision: InstructionGate.Decision
    /// What was gated.
    public var gatedDescription: String
    /// Base and head median of the gated count.
    public var baseMedian: Double, headMedian: Double
    /// The functions whose inclusive instructions changed most (either way), largest change first.
    public var functions: [FunctionChange]

    /// One function's change.
    public struct FunctionChange: Sendable, Codable, Equatable {
        /// Its name.
        public var name: String
        /// Its source file, when known.
        public var file: String?
        /// Median inclusive instructions on each side (0 where it did not run).
        public var baseInclusive: Double, headInclusive: Double
        /// head − base.
        public var change: Double { headInclusive - baseInclusive }

        /// Makes a row.
        public init(name: String, file: String?, baseInclusive: Double, headInclusive: Double) {
            self.name = name
            self.file = file
            self.baseInclusive = baseInclusive
            self.headInclusive = headInclusive
        }
    }

    /// How many functions the comparison lists.
    public static let functionLimit = 40

    /// Compares two measurements' counts; nil when either was not counted.
    ///
    /// - Throws: ``InstructionGate/RuleError`` with fewer than 3 counted launches a side.
    public init?(
        base: InstructionStatistics?, head: InstructionStatistics?,
        minimumEffect: Double = InstructionGate.defaultMinimumEffect
    )
        throws(InstructionGate.RuleError)
    {
        guard let base, let head else { return nil }
        decision = try InstructionGate.decide(
            base: base.gatedValues, head: head.gatedValues, minimumEffect: minimumEffect)
        gatedDescription = head.gatedDescription
        baseMedian = base.gated.median
        headMedian = head.gated.median
        let baseFunctions = Dictionary(base.functions.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let headFunctions = Dictionary(head.functions.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let changes = Set(baseFunctions.keys).union(headFunctions.keys).map { name in
            FunctionChange(
                name: name, file: headFunctions[name]?.file ?? baseFunctions[name]?.file,
                baseInclusive: baseFunctions[name]?.inclusiveMedian ?? 0,
                headInclusive: headFunctions[name]?.inclusiveMedian ?? 0)
        }
        .filter { $0.change != 0 }
        .sorted { (abs($0.change), $1.name) > (abs($1.change), $0.name) }
        functions = changes.prefix(Self.functionLimit).map { $0 }
    }
}
