import LaunchAnalysis
import LaunchTracing
import _LaunchSystem

/// Counts a launch's instructions under valgrind's callgrind
/// (the library for it: no command runs it yet).
///
/// A counted launch runs `valgrind --tool=callgrind` (no cache or branch
/// simulation: the cheapest exact count) with each thread's count kept apart,
/// valgrind's own messages in a log file beside the counts, and an environment
/// held fixed between launches (``environment(_:)``). An instrumented program
/// has callgrind dump at every milestone, which splits the main thread's
/// instructions into phases. Valgrind slows a program 20–50 ×.
///
/// ```swift
/// let counter = try InstructionCounter.locate()
/// let program = try counter.prepare(program: "/usr/bin/python3", in: folder)
/// let command = counter.command(program: program, arguments: ["-c", "import json"], output: folder + "/callgrind")
/// // … launch `command`, then:
/// let counts = try counter.collect(output: folder + "/callgrind", processID: pid)
/// ```
public struct InstructionCounter: Sendable, Equatable {
    /// The valgrind that counts.
    public var valgrindPath: String
    /// Its version, as `valgrind --version` prints it (`valgrind-3.19.0`).
    public var valgrindVersion: String
    /// `swift-demangle`, when found: Swift function names are shown demangled.
    public var demanglerPath: String?
    /// `objcopy`, when found: needed for binaries whose debug information valgrind refuses.
    public var objcopyPath: String?

    /// The line that says how to get valgrind where it is missing.
    public static let installHint = "instruction counts need valgrind (Debian/Ubuntu: apt-get install valgrind)"

    /// A counter of the tools at these paths, found already (tests give paths of their own).
    package init(valgrindPath: String, valgrindVersion: String, demanglerPath: String? = nil, objcopyPath: String? = nil) {
        self.valgrindPath = valgrindPath
        self.valgrindVersion = valgrindVersion
        self.demanglerPath = demanglerPath
        self.objcopyPath = objcopyPath
    }

    /// Finds valgrind (and the demangler and objcopy) on `PATH`.
    ///
    /// - Throws: ``LaunchError/toolMissing(tool:hint:)`` when valgrind is not installed.
    public static func locate() throws(LaunchError) -> InstructionCounter {
        guard let valgrind = try? Launcher.resolve("valgrind") else {
            throw .toolMissing(tool: "valgrind", hint: installHint)
        }
        guard let (status, output) = Platform.runTool(valgrind, ["valgrind", "--version"]), status == .exited(code: 0) else {
            throw .toolMissing(tool: "valgrind", hint: "\(valgrind) --version failed; " + installHint)
        }
        let version = String(decoding: output, as: UTF8.self).trimmingWhitespace()
        return InstructionCounter(
            valgrindPath: valgrind, valgrindVersion: version,
            demanglerPath: try? Launcher.resolve("swift-demangle"), objcopyPath: try? Launcher.resolve("objcopy"))
    }

    /// The program to run under valgrind: `program` itself, or, when it carries
    /// debug information valgrind refuses, a copy without it (`objcopy
    /// --strip-debug`, which keeps the function names) made in `folder` under the
    /// same name, beside a link to every other entry of the program's folder — so
    /// its `argv[0]` and the files it finds beside itself stay as they were.
    ///
    /// - Throws: ``LaunchError/toolMissing(tool:hint:)`` without objcopy,
    ///   ``LaunchError/cannotCreate(path:code:)`` when the copy cannot be made.
    public func prepare(program: String, in folder: String) throws(LaunchError) -> String {
        guard ELFDebugInfo.present(in: program) else { return program }
        guard let objcopyPath else { throw Self.objcopyMissing(for: program) }
        let slash = program.lastIndex(of: "/")!
        let home = String(program[..<slash]), name = String(program[program.index(after: slash)...])
        let copyFolder = folder + "/program"
        do { try SystemCalls.makeDirectories(copyFolder) } catch { throw .cannotCreate(path: copyFolder, code: error.code) }
        let copy = copyFolder + "/" + name
        if !SystemCalls.exists(copy) {
            guard let (status, _) = Platform.runTool(objcopyPath, ["objcopy", "--strip-debug", program, copy]),
                  status == .exited(code: 0) else {
                throw .cannotCreate(path: copy, code: 0)
            }
            for entry in Platform.folderEntries(home.isEmpty ? "/" : home) ?? [] where entry != name {
                try? Platform.makeSymbolicLink(home + "/" + entry, at: copyFolder + "/" + entry)
            }
        }
        return copy
    }

    /// Checks, before any launch, that `program` can be counted here: one with debug
    /// information valgrind refuses is counted through a copy without it, which takes objcopy.
    ///
    /// - Throws: ``LaunchError/toolMissing(tool:hint:)`` naming objcopy and how to install it.
    public func checkCanCount(_ program: String) throws(LaunchError) {
        if objcopyPath == nil, ELFDebugInfo.present(in: program) { throw Self.objcopyMissing(for: program) }
    }

    /// The error for `program`, which needs objcopy where there is none.
    static func objcopyMissing(for program: String) -> LaunchError {
        .toolMissing(tool: "objcopy", hint: "\(program) has debug information valgrind cannot read, and objcopy is needed "
            + "to count a copy without it (Debian/Ubuntu: apt-get install binutils)")
    }

    /// The command that counts `program` run with `arguments`: callgrind's files
    /// go to `output.<pid>…`, valgrind's messages to `output.log`. The processes
    /// it starts are counted too (`--trace-children=yes`); one that replaces
    /// itself with another program (a wrapper script's `exec`) is counted as the
    /// last program it became.
    public func command(program: String, arguments: [String], output: String) -> [String] {
        [valgrindPath, "--tool=callgrind", "--cache-sim=no", "--branch-sim=no", "--separate-threads=yes",
         "--dump-instr=no", "--trace-children=yes", "--callgrind-out-file=\(output).%p", "--log-file=\(output).log",
         program] + arguments
    }

    /// The environment a counted launch adds to launchprof's own (`existing`, the
    /// names already set) to be repeatable: hash seeds fixed
    /// (`SWIFT_DETERMINISTIC_HASHING=1`, `PYTHONHASHSEED=0`, unless already set),
    /// the sampler off (it runs on a wall-clock timer), and the tracer asked for
    /// its milestone dumps (which also keeps its per-span resource accounting
    /// off: its readings follow the wall clock too). (What else varies between launches — the length of
    /// launchprof's own paths and stamps — the caller holds fixed.)
    public static func environment(existing: Set<String>) -> [String: String] {
        var added = [LaunchContract.Variable.sampler: "0", LaunchContract.Variable.countInstructions: "1"]
        for (name, value) in [("SWIFT_DETERMINISTIC_HASHING", "1"), ("PYTHONHASHSEED", "0")] where !existing.contains(name) {
            added[name] = value
        }
        return added
    }

    /// The counts callgrind wrote under `output` for the launch whose process was
    /// `processID` (and for the processes it started).
    ///
    /// - Throws: ``LaunchError/instructionCountMissing(path:reason:)`` when it
    ///   wrote none for that process (a program killed before its end, or
    ///   valgrind's own failure, which `output.log` tells).
    public func collect(output: String, processID: Int32) throws(LaunchError) -> InstructionCounts {
        let slash = output.lastIndex(of: "/")!
        let folder = String(output[..<slash]), base = String(output[output.index(after: slash)...]) + "."
        // base.PID-TT (written at its end) and base.PID.N-TT (dump N): dumps in order, then the end.
        var found: [(pid: Int32, dump: Int, thread: Int, name: String)] = []
        for entry in Platform.folderEntries(folder) ?? [] where entry.hasPrefix(base) {
            let rest = entry.dropFirst(base.count)
            guard let dash = rest.lastIndex(of: "-"), let thread = Int(rest[rest.index(after: dash)...]) else { continue }
            let head = rest[..<dash].split(separator: ".", omittingEmptySubsequences: false)
            guard let pid = Int32(head[0]) else { continue }
            if head.count == 1 {
                found.append((pid, Int.max, thread, entry))
            } else if head.count == 2, let dump = Int(head[1]) {
                found.append((pid, dump, thread, entry))
            }
        }
        found.sort { ($0.pid, $0.dump, $0.thread) < ($1.pid, $1.dump, $1.thread) }
        var launched: [CallgrindFile] = [], others: [CallgrindFile] = []
        for item in found {
            let path = folder + "/" + item.name
            let file: CallgrindFile
            do {
                let bytes = try BoundedFile.read(path, limit: 1 << 30, followLinks: false)
                file = try CallgrindFile(parsing: String(decoding: bytes, as: UTF8.self))
            } catch {
                throw .instructionCountMissing(path: path, reason: "\(error)")
            }
            if item.pid == processID { launched.append(file) } else { others.append(file) }
        }
        guard !launched.isEmpty else {
            let log = Platform.tail(of: output + ".log", maxBytes: 2_000)?
                .split(whereSeparator: \.isNewline).map { $0.drop { $0 == "=" || $0.isNumber } }.last { !$0.trimmingWhitespace().isEmpty }
            throw .instructionCountMissing(
                path: output, reason: log.map { "valgrind: " + $0.trimmingWhitespace() }
                    ?? "callgrind wrote no count (was the program ended before its exit?)")
        }
        var counts = InstructionCounts(files: launched, otherProcesses: others, valgrindVersion: valgrindVersion)
        counts.functions = demangled(counts.functions)
        return counts
    }

    /// Swift names demangled (`--simplified`), when the demangler is installed.
    func demangled(_ functions: [InstructionCounts.FunctionInstructions]) -> [InstructionCounts.FunctionInstructions] {
        guard let demanglerPath else { return functions }
        let mangled = functions.indices.filter { functions[$0].name.hasPrefix("$s") || functions[$0].name.hasPrefix("$S") }
        guard !mangled.isEmpty,
              let (status, output) = Platform.runTool(
                demanglerPath, ["swift-demangle", "--compact", "--simplified"] + mangled.map { functions[$0].name }),
              status == .exited(code: 0) else { return functions }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= mangled.count else { return functions }
        var result = functions
        for (offset, index) in mangled.enumerated() where !lines[offset].isEmpty {
            result[index].name = String(lines[offset])
        }
        return result
    }
}
