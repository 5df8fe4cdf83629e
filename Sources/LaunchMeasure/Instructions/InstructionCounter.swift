import LaunchAnalysis
import LaunchTracing

/// Counts a launch's instructions under valgrind's callgrind
/// (`--metric instructions`).
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
        guard let objcopyPath else {
            throw .toolMissing(tool: "objcopy", hint: "\(program) has debug information valgrind cannot read, and objcopy "
                + "(binutils) is needed to count a copy without it")
        }
        let slash = program.lastIndex(of: "/")!
        let home = String(program[..<slash]), name = String(program[program.index(after: slash)...])
        let copyFolder = folder + "/program"
        do { try Platform.makeDirectories(copyFolder) } catch { throw .cannotCreate(path: copyFolder, code: error.code) }
        let copy = copyFolder + "/" + name
        if !Platform.exists(copy) {
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

    /// The command that counts `program` run with `arguments`: callgrind's files
    /// go to `output.<pid>…`, valgrind's messages to `output.log`.
    public func command(program: String, arguments: [String], output: String) -> [String] {
        [valgrindPath, "--tool=callgrind", "--cache-sim=no", "--branch-sim=no", "--separate-threads=yes",
         "--dump-instr=no", "--callgrind-out-file=\(output).%p", "--log-file=\(output).log", program] + arguments
    }

    /// `entries` (`NAME=value`) made repeatable for counting: hash seeds fixed
    /// (`SWIFT_DETERMINISTIC_HASHING=1`, `PYTHONHASHSEED=0`, unless already set),
    /// the sampler off (it runs on a wall-clock timer), and the tracer asked for
    /// its milestone dumps. launchprof's own variables that change between launches
    /// must have a fixed length; ``fixedLengthSpawnStamp(_:)`` gives the stamp one.
    public static func environment(_ entries: [String]) -> [String] {
        var result = entries
        let names = Set(entries.map { String($0.prefix { $0 != "=" }) })
        for (name, value) in [("SWIFT_DETERMINISTIC_HASHING", "1"), ("PYTHONHASHSEED", "0")] where !names.contains(name) {
            result.append("\(name)=\(value)")
        }
        let ours = [LaunchContract.Variable.sampler, LaunchContract.Variable.countInstructions]
        result.removeAll { entry in ours.contains { entry.hasPrefix($0 + "=") } }
        result += ["\(LaunchContract.Variable.sampler)=0", "\(LaunchContract.Variable.countInstructions)=1"]
        return result
    }

    /// The counts callgrind wrote for process `processID` under `output`.
    ///
    /// - Throws: ``LaunchError/instructionCountMissing(path:reason:)`` when it
    ///   wrote none (a program killed before its end, or valgrind's own failure,
    ///   which `output.log` tells).
    public func collect(output: String, processID: Int32) throws(LaunchError) -> InstructionCounts {
        let slash = output.lastIndex(of: "/")!
        let folder = String(output[..<slash]), base = String(output[output.index(after: slash)...]) + ".\(processID)"
        // base-TT (at the end), base.N-TT (dump N): dumps in order, then the end.
        var ordered: [(dump: Int, thread: Int, name: String)] = []
        for entry in Platform.folderEntries(folder) ?? [] where entry.hasPrefix(base) {
            let rest = entry.dropFirst(base.count)
            if rest.hasPrefix("-"), let thread = Int(rest.dropFirst()) {
                ordered.append((Int.max, thread, entry))
            } else if rest.hasPrefix("."), let dash = rest.firstIndex(of: "-"),
                      let dump = Int(rest[rest.index(after: rest.startIndex)..<dash]), let thread = Int(rest[rest.index(after: dash)...]) {
                ordered.append((dump, thread, entry))
            }
        }
        ordered.sort { ($0.dump, $0.thread) < ($1.dump, $1.thread) }
        var files: [CallgrindFile] = []
        for item in ordered {
            let path = folder + "/" + item.name
            let bytes: [UInt8]
            do { bytes = try BoundedFile.read(path, limit: 1 << 30, followLinks: false) } catch {
                throw .instructionCountMissing(path: path, reason: "\(error)")
            }
            do { files.append(try CallgrindFile(parsing: String(decoding: bytes, as: UTF8.self))) } catch {
                throw .instructionCountMissing(path: path, reason: "\(error)")
            }
        }
        guard !files.isEmpty else {
            let log = Platform.tail(of: output + ".log", maxBytes: 2_000)?
                .split(whereSeparator: \.isNewline).map { $0.drop { $0 == "=" || $0.isNumber } }.last { !$0.trimmingWhitespace().isEmpty }
            throw .instructionCountMissing(
                path: output, reason: log.map { "valgrind: " + $0.trimmingWhitespace() }
                    ?? "callgrind wrote no count (was the program ended before its exit?)")
        }
        var counts = InstructionCounts(files: files, valgrindVersion: valgrindVersion)
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
