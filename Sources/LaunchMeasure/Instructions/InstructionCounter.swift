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
/// let route = try counter.prepare(program: "/usr/bin/python3", in: folder)
/// let command = route.wrapping(
///     counter.command(program: "/usr/bin/python3", arguments: ["-c", "import json"], output: folder + "/callgrind"),
///     program: "/usr/bin/python3", workingDirectoryVariable: nil)
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
    /// `unshare`, when found: counts a copy without that debug information at the program's own path.
    public var unsharePath: String?

    /// The line that says how to get valgrind where it is missing.
    public static let installHint = "instruction counts need valgrind (Debian/Ubuntu: apt-get install valgrind)"

    /// A counter of the tools at these paths, found already (tests give paths of their own).
    package init(
        valgrindPath: String, valgrindVersion: String, demanglerPath: String? = nil, objcopyPath: String? = nil,
        unsharePath: String? = nil
    ) {
        self.valgrindPath = valgrindPath
        self.valgrindVersion = valgrindVersion
        self.demanglerPath = demanglerPath
        self.objcopyPath = objcopyPath
        self.unsharePath = unsharePath
    }

    /// Finds valgrind (and the demangler, objcopy and unshare) on `PATH`.
    ///
    /// Where `valgrind` is Debian's wrapper script beside `valgrind.bin`, the binary is
    /// run: the script exports `LD_LIBRARY_PATH` and `GLIBCXX_FORCE_NEW`, which would
    /// make the counted program's environment differ from the timed one's.
    ///
    /// - Throws: ``LaunchError/toolMissing(tool:hint:)`` when valgrind is not installed.
    public static func locate() throws(LaunchError) -> InstructionCounter {
        guard var valgrind = try? Launcher.resolve("valgrind") else {
            throw .toolMissing(tool: "valgrind", hint: installHint)
        }
        if Platform.bytes(of: valgrind, at: 0, count: 2) == Array("#!".utf8),
            let binary = try? Launcher.resolve(valgrind + ".bin")
        {
            valgrind = binary
        }
        guard let (status, output) = Platform.runTool(valgrind, ["valgrind", "--version"]), status == .exited(code: 0)
        else {
            throw .toolMissing(tool: "valgrind", hint: "\(valgrind) --version failed; " + installHint)
        }
        let version = String(decoding: output, as: UTF8.self).trimmingWhitespace()
        return InstructionCounter(
            valgrindPath: valgrind, valgrindVersion: version,
            demanglerPath: try? Launcher.resolve("swift-demangle"), objcopyPath: try? Launcher.resolve("objcopy"),
            unsharePath: try? Launcher.resolve("unshare"))
    }

    /// How `program` is counted (``CountingRoute``): as it is, or, when valgrind
    /// gives up on its debug information, through a copy without it (`objcopy
    /// --strip-debug`, made in `folder/program/` under the program's name, a file, not a link)
    /// mounted over the program's path for each counted launch.
    ///
    /// - Throws: ``LaunchError/cannotCount(program:reason:)`` when it cannot be counted
    ///   as itself here, ``LaunchError/cannotCreate(path:code:)`` when the copy cannot be made
    ///   (naming it in `namedFolder`, where `folder` will be once committed; default `folder`).
    public func prepare(program: String, in folder: String, namedFolder: String? = nil) throws(LaunchError)
        -> CountingRoute
    {
        guard let failure = debugInfoFailure(program) else { return .direct }
        let (objcopy, unshare) = try hidingTools(program, failure: failure)
        let name = String(program[program.index(after: program.lastIndex(of: "/") ?? program.startIndex)...])
        let copyFolder = folder + "/program"
        let named = (namedFolder ?? folder) + "/program/" + (name.isEmpty ? "program" : name)
        do { try SystemCalls.makeDirectories(copyFolder) } catch {
            throw .cannotCreate(path: (namedFolder ?? folder) + "/program", code: error.code)
        }
        let copy = copyFolder + "/" + (name.isEmpty ? "program" : name)
        if !SystemCalls.exists(copy) {
            guard let (status, _) = Platform.runTool(objcopy, ["objcopy", "--strip-debug", program, copy]),
                status == .exited(code: 0)
            else {
                throw .cannotCreate(path: named, code: 0)
            }
        }
        return .debugInfoHidden(copy: copy, unshare: unshare, asRoot: Platform.isRoot)
    }

    /// Checks, before any launch, that `program` can be counted here as itself: valgrind
    /// reads it (``debugInfoFailure(_:)``), or its debug information can be hidden
    /// from valgrind at the program's own path (``CountingRoute/debugInfoHidden(copy:unshare:asRoot:)``).
    ///
    /// - Throws: ``LaunchError/cannotCount(program:reason:)``: one line with valgrind's
    ///   version, what it failed on, and what to do.
    public func checkCanCount(_ program: String) throws(LaunchError) {
        guard let failure = debugInfoFailure(program) else { return }
        _ = try hidingTools(program, failure: failure)
    }

    /// What valgrind gives up on when it reads `program`'s debug information (its
    /// own words: `unhandled dwarf2 abbrev form code 0x25`), or nil when it reads it.
    ///
    /// Valgrind runs the program's loader (`PT_INTERP`) with `--list` on it: the
    /// program is mapped, so its debug information is read, and none of its code runs.
    /// A program without debug information, or without a loader (a script, a static
    /// binary), is not probed: its counted launch tells.
    package func debugInfoFailure(_ program: String) -> String? {
        guard ELFDebugInfo.present(in: program), let loader = ELFInterpreter.path(of: program),
            let (status, output) = Platform.runTool(
                valgrindPath, ["valgrind", "--tool=none", "--log-fd=1", loader, "--list", program]),
            status != .exited(code: 0)
        else { return nil }
        let lines = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.drop { $0 == "=" || $0.isNumber || $0 == "#" }.trimmingWhitespace() }
        return lines.first { $0.hasPrefix("unhandled") }
            ?? lines.last { $0.hasPrefix("Valgrind:") }.map {
                String($0.dropFirst("Valgrind:".count)).trimmingWhitespace()
            }
            ?? "its debug information (exit \(status))"
    }

    /// objcopy and unshare, checked to hide `program`'s debug information at its own path.
    ///
    /// - Throws: ``LaunchError/cannotCount(program:reason:)`` naming `failure` and what is missing.
    func hidingTools(_ program: String, failure: String) throws(LaunchError) -> (objcopy: String, unshare: String) {
        let fix = Self.debugInfoFix
        func refuse(_ why: String) -> LaunchError {
            .cannotCount(
                program: program,
                reason: "\(valgrindVersion) gives up on its debug information (\(failure)), "
                    + "and \(why); \(fix)")
        }
        guard let objcopyPath else {
            throw refuse("objcopy, needed to count it without it, is missing (apt-get install binutils)")
        }
        guard let unsharePath else {
            throw refuse("unshare, needed to count it at its own path, is missing (apt-get install util-linux)")
        }
        // The mount the counted launches make, tried once: the program over itself.
        let trial =
            CountingRoute.namespace(unshare: unsharePath, asRoot: Platform.isRoot)
            + ["/bin/sh", "-c", #"mount --bind "$0" "$0""#, program]
        guard let (status, _) = Platform.runTool(unsharePath, ["unshare"] + trial.dropFirst()),
            status == .exited(code: 0)
        else {
            throw refuse(
                "this machine refuses the private mount namespace that counts it at its own path without it "
                    + "(unshare --mount\(Platform.isRoot ? "" : " --user"))")
        }
        return (objcopyPath, unsharePath)
    }

    /// The command that counts `program` run with `arguments`: callgrind's files
    /// go to `output.<pid>…`, each valgrind process's messages to `output.<pid>.log`
    /// (``launchProcesses(output:)`` reads which processes they were). The processes
    /// it starts are counted too (`--trace-children=yes`); one that replaces
    /// itself with another program (a wrapper script's `exec`) is counted as the
    /// last program it became. `output` belongs in a folder the program is not told
    /// about (not its working directory, nor its trace's).
    public func command(program: String, arguments: [String], output: String) -> [String] {
        [
            valgrindPath, "--tool=callgrind", "--cache-sim=no", "--branch-sim=no", "--separate-threads=yes",
            "--dump-instr=no", "--trace-children=yes", "--callgrind-out-file=\(output).%p",
            "--log-file=\(output).%p.log",
            program,
        ] + arguments
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
        for (name, value) in [("SWIFT_DETERMINISTIC_HASHING", "1"), ("PYTHONHASHSEED", "0")]
        where !existing.contains(name) {
            added[name] = value
        }
        return added
    }

    /// The counts callgrind wrote under `output` for the launch whose process was
    /// `processID` (and for the processes it started): only the files of processes
    /// valgrind's own logs name (a file another process wrote there is not counted),
    /// their sums checked for overflow.
    ///
    /// With `toMark` (a program launchprof ended at its ready mark), the launched
    /// process is counted to the dump the tracer made at that milestone: its dumps up
    /// to and including that one; what it ran after the mark, and the file written
    /// when it was ended (which the end may cut short), are not counted. Callgrind's
    /// dump at a client request counts the requesting thread alone, so a mark made on
    /// another thread than the main one is refused (which thread marks, and what the
    /// others ran by then, differ between identical launches). The processes it
    /// started are counted as far as their files were written (a file cut short by the
    /// end is left out).
    ///
    /// - Throws: ``LaunchError/instructionCountMissing(path:reason:)`` when it
    ///   wrote none for that process (a program killed before its end, or
    ///   valgrind's own failure, which `output.<pid>.log` tells), none at the mark,
    ///   a mark made on another thread than the main one, or when the counts overflow;
    ///   its paths under `namedOutput` (where `output` will be once committed; default `output`).
    public func collect(
        output: String, namedOutput: String? = nil, processID: Int32, toMark: Milestone? = nil
    ) throws(LaunchError) -> InstructionCounts {
        let shown = namedOutput ?? output
        let shownFolder = String(shown[..<(shown.lastIndex(of: "/") ?? shown.startIndex)])
        let valgrindProcesses = Self.launchProcesses(output: output).union([processID])
        let slash = output.lastIndex(of: "/")!
        let folder = String(output[..<slash])
        let base = String(output[output.index(after: slash)...]) + "."
        // base.PID-TT (written at its end) and base.PID.N-TT (dump N): dumps in order, then the end.
        var found: [(pid: Int32, dump: Int, thread: Int, name: String)] = []
        for entry in Platform.folderEntries(folder) ?? [] where entry.hasPrefix(base) {
            let rest = entry.dropFirst(base.count)
            guard let dash = rest.lastIndex(of: "-"), let thread = Int(rest[rest.index(after: dash)...]) else {
                continue
            }
            let head = rest[..<dash].split(separator: ".", omittingEmptySubsequences: false)
            guard let pid = Int32(head[0]), valgrindProcesses.contains(pid) else { continue }
            if head.count == 1 {
                found.append((pid, Int.max, thread, entry))
            } else if head.count == 2, let dump = Int(head[1]) {
                found.append((pid, dump, thread, entry))
            }
        }
        found.sort { ($0.pid, $0.dump, $0.thread) < ($1.pid, $1.dump, $1.thread) }
        var launched: [(dump: Int, file: CallgrindFile)] = []
        var others: [CallgrindFile] = []
        for item in found {
            // Ended at the mark: the launched process's file written at its end is not read.
            if toMark != nil, item.pid == processID, item.dump == Int.max { continue }
            let path = folder + "/" + item.name
            let file: CallgrindFile
            do {
                let bytes = try BoundedFile.read(path, limit: 1 << 30, followLinks: false)
                file = try CallgrindFile(parsing: String(decoding: bytes, as: UTF8.self))
            } catch {
                if toMark != nil, item.pid != processID { continue }  // cut short when the launch was ended
                throw .instructionCountMissing(path: shownFolder + "/" + item.name, reason: "\(error)")
            }
            if item.pid == processID { launched.append((item.dump, file)) } else { others.append(file) }
        }
        if let toMark {
            guard let markDump = launched.first(where: { $0.file.milestoneID == toMark.id })?.dump else {
                throw .instructionCountMissing(
                    path: shown,
                    reason:
                        "callgrind wrote no count at the ready mark (\(toMark.id)); the program was ended there "
                        + "(more than \(InstructionMarks.dumpLimit) milestones marked before it?)")
            }
            // Callgrind's dump at a client request counts the requesting thread alone: a mark made on
            // another thread leaves the main thread and the rest uncounted to it, and which thread marks
            // (and what it ran) differs between identical launches.
            if let thread = launched.first(where: { $0.dump == markDump })?.file.thread, thread != 1 {
                throw .instructionCountMissing(
                    path: shown,
                    reason:
                        "the ready mark was made on thread \(thread), not the main thread: callgrind's dump there "
                        + "counts that thread alone, which differs between identical launches; call "
                        + "LaunchTracer.markReady() on the main thread (have it wait until the server accepts "
                        + "connections, then mark)")
            }
            launched.removeAll { $0.dump > markDump }
        }
        guard !launched.isEmpty else {
            let log = Platform.tail(of: output + ".\(processID).log", maxBytes: 2_000)?
                .split(whereSeparator: \.isNewline).map { $0.drop { $0 == "=" || $0.isNumber } }.last {
                    !$0.trimmingWhitespace().isEmpty
                }
            throw .instructionCountMissing(
                path: shown,
                reason: log.map { "valgrind: " + $0.trimmingWhitespace() }
                    ?? "callgrind wrote no count (was the program ended before its exit?)")
        }
        var sum: UInt64 = 0
        for file in launched.map(\.file) + others {
            let (added, overflow) = sum.addingReportingOverflow(file.instructions)
            guard !overflow else {
                throw .instructionCountMissing(
                    path: shown, reason: "the counts add up past 2^64: not counts callgrind wrote")
            }
            sum = added
        }
        var counts = InstructionCounts(
            files: launched.map(\.file), otherProcesses: others, valgrindVersion: valgrindVersion)
        counts.functions = demangled(counts.functions)
        return counts
    }

    /// Swift names demangled (`--simplified`), when the demangler is installed.
    func demangled(_ functions: [InstructionCounts.FunctionInstructions]) -> [InstructionCounts.FunctionInstructions] {
        guard let demanglerPath else { return functions }
        let mangled = functions.indices.filter {
            functions[$0].name.hasPrefix("$s") || functions[$0].name.hasPrefix("$S")
        }
        guard !mangled.isEmpty,
            let (status, output) = Platform.runTool(
                demanglerPath, ["swift-demangle", "--compact", "--simplified"] + mangled.map { functions[$0].name }),
            status == .exited(code: 0)
        else { return functions }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= mangled.count else { return functions }
        var result = functions
        for (offset, index) in mangled.enumerated() where !lines[offset].isEmpty {
            result[index].name = String(lines[offset])
        }
        return result
    }
}
