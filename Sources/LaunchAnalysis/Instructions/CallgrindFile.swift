import LaunchTracing

/// One file callgrind wrote: the instructions one thread ran between two dumps
/// (or from its start, or to the program's end), and how they split by function.
///
/// Reads callgrind's output format (`events: Ir`, name compression `(id) name`,
/// relative positions); only the first event column is used.
public struct CallgrindFile: Sendable, Equatable {
    /// What made callgrind write it: a client request's name (the tracer's
    /// `launchprof:milestone:<id>`), or `Program termination`.
    public var trigger: String
    /// The thread (1 is the process's first, its main thread), when `--separate-threads=yes`.
    public var thread: Int?
    /// Instructions counted in the file.
    public var instructions: UInt64
    /// Instructions per function: `self` run in the function itself, `inclusive`
    /// with the functions it called (a recursive call is counted at each level),
    /// at most ``instructions``.
    public var functions: [String: FunctionCost]

    /// One function's cost.
    public struct FunctionCost: Sendable, Equatable, Codable {
        /// Instructions run in the function itself.
        public var selfInstructions: UInt64
        /// Instructions run in it and in what it called.
        public var inclusiveInstructions: UInt64
        /// Its source file, when the binary's symbols name one.
        public var file: String?

        /// Makes a cost.
        public init(selfInstructions: UInt64 = 0, inclusiveInstructions: UInt64 = 0, file: String? = nil) {
            self.selfInstructions = selfInstructions
            self.inclusiveInstructions = inclusiveInstructions
            self.file = file
        }
    }

    /// Why a file could not be read.
    public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The 1-based line.
        public var line: Int
        /// What is wrong with it.
        public var reason: String
        public var description: String { "line \(line): \(reason)" }

        /// Makes an error.
        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// Parses the text of one callgrind output file.
    public init(parsing text: String) throws(FormatError) {
        var trigger = ""
        var thread: Int?
        var totals: UInt64?
        var summed: UInt64 = 0
        var positionColumns = 1
        var functionNames: [String: String] = [:]
        var fileNames: [String: String] = [:]
        var selfCost: [String: UInt64] = [:]
        var callCost: [String: UInt64] = [:]
        var fileOf: [String: String] = [:]
        var currentFunction = "???"
        var currentFile: String?
        var callPending = false
        var number = 0

        /// "(id) name" defines id; "(id)" refers to it; a plain name is itself.
        func resolve(_ value: Substring, in table: inout [String: String]) -> String {
            guard value.hasPrefix("("), let close = value.firstIndex(of: ")") else { return String(value) }
            let id = String(value[value.index(after: value.startIndex)..<close])
            let rest = value[value.index(after: close)...].drop { $0 == " " }
            if rest.isEmpty { return table[id] ?? "(\(id))" }
            table[id] = String(rest)
            return String(rest)
        }

        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            guard let first = line.first, first != "#" else { continue }
            if first.isNumber || first == "+" || first == "-" || first == "*" {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count > positionColumns else {
                    // A position with no cost counts nothing.
                    callPending = false
                    continue
                }
                guard let cost = UInt64(fields[positionColumns]) else {
                    throw FormatError(line: number, reason: "'\(fields[positionColumns])' is not an instruction count")
                }
                if callPending {
                    callCost[currentFunction] = (callCost[currentFunction] ?? 0).addingClamped(cost)
                    callPending = false
                } else {
                    selfCost[currentFunction] = (selfCost[currentFunction] ?? 0).addingClamped(cost)
                    summed = summed.addingClamped(cost)
                }
                continue
            }
            guard let equals = line.firstIndex(where: { $0 == "=" || $0 == ":" }) else { continue }
            let key = line[..<equals]
            let value = line[line.index(after: equals)...].drop { $0 == " " }
            switch key {
            case "fn":
                currentFunction = resolve(value, in: &functionNames)
                if let currentFile, fileOf[currentFunction] == nil { fileOf[currentFunction] = currentFile }
            case "cfn":
                _ = resolve(value, in: &functionNames)
            case "fl", "fi", "fe":
                let name = resolve(value, in: &fileNames)
                if key == "fl" { currentFile = name == "???" ? nil : name }
            case "cfi", "cfl":
                _ = resolve(value, in: &fileNames)
            case "calls":
                callPending = true
            case "positions":
                positionColumns = max(1, value.split(separator: " ").count)
            case "totals", "summary":
                if let first = value.split(separator: " ").first, let count = UInt64(first) { totals = count }
            case "desc":
                if value.hasPrefix("Trigger:") {
                    trigger = String(value.dropFirst("Trigger:".count).drop { $0 == " " })
                }
            case "thread":
                thread = Int(value)
            default:
                break
            }
        }
        if trigger.hasPrefix("Client Request: ") { trigger = String(trigger.dropFirst("Client Request: ".count)) }
        self.trigger = trigger
        self.thread = thread
        instructions = totals ?? summed
        var functions: [String: FunctionCost] = [:]
        for name in Set(selfCost.keys).union(callCost.keys) {
            let own = selfCost[name] ?? 0
            // At most the file's total: functions of one name in several objects (`(below main)` in
            // libc and in the program, one calling the other) are one entry here, and callgrind counts a
            // recursive cycle's calls at each level; neither can have run more than the whole file.
            let inclusive = min(own.addingClamped(callCost[name] ?? 0), max(instructions, own))
            functions[name] = FunctionCost(selfInstructions: own, inclusiveInstructions: inclusive, file: fileOf[name])
        }
        self.functions = functions
    }

    /// The milestone a tracer's dump was named after, if this file is one.
    public var milestoneID: String? {
        trigger.hasPrefix(InstructionMarks.dumpPrefix)
            ? String(trigger.dropFirst(InstructionMarks.dumpPrefix.count)) : nil
    }
}
