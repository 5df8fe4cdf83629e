import LaunchTracing

extension InstructionCounter {
    /// The processes valgrind ran for one counted launch: the process ids its logs
    /// (`output.<pid>.log`, one a valgrind process) prefix their lines with
    /// (`==1234==`). A process that forks under valgrind writes to its parent's log
    /// with its own id; one that execs a traced program opens a log of its own.
    ///
    /// ```swift
    /// InstructionCounter.launchProcesses(output: "/runs/base/counts-001/callgrind")  // [4102, 4105]
    /// ```
    package static func launchProcesses(output: String) -> Set<Int32> {
        let slash = output.lastIndex(of: "/")!
        let folder = String(output[..<slash])
        let base = String(output[output.index(after: slash)...]) + "."
        var found = Set<Int32>()
        for entry in Platform.folderEntries(folder) ?? [] where entry.hasPrefix(base) && entry.hasSuffix(".log") {
            guard
                let bytes = try? BoundedFile.read(
                    folder + "/" + entry, limit: 1 << 24, followLinks: false, prefix: true)
            else { continue }
            for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: "==".utf8) {
                let digits = line.dropFirst(2).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                guard line.dropFirst(2 + digits.count).starts(with: "==".utf8),
                    let pid = Int32(String(decoding: digits, as: UTF8.self))
                else { continue }
                found.insert(pid)
            }
        }
        return found
    }
}

extension InstructionCounter {
    /// How the hint for a program whose debug information valgrind gives up on reads.
    static let debugInfoFix =
        "build it without DWARF 5 debug information (swift build -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4), "
        + "strip it (objcopy --strip-debug), or use a valgrind that reads it"

    /// One line saying why valgrind could not run `program` in the counted launch whose
    /// process was `processID`, read from valgrind's own log (`output.<pid>.log`): the
    /// valgrind version, what it failed on in its own words, and what to do. Nil when
    /// the log names no failure of valgrind's (the program itself failed, or there is no log).
    ///
    /// Recognised: its DWARF reader giving up (`unhandled dwarf2 abbrev form code 0x25`,
    /// `I can't recover`), and its internal crash (`VALGRIND INTERNAL ERROR … signal 11`),
    /// named with the function the running thread was in. A crash in `sigsuspend` is the
    /// one Swift programs meet: libdispatch's `dispatchMain()`, where the main thread of an
    /// async `main` waits on Linux, hands `sigsuspend` a read-only signal mask, which
    /// valgrind 3.19 writes into.
    ///
    /// ```swift
    /// counter.valgrindFailure(output: folder + "/callgrind", processID: 4102, program: "/srv/HelloServer")
    /// // "valgrind-3.19.0 could not run HelloServer: VALGRIND INTERNAL ERROR: … in sigsuspend; …"
    /// ```
    package func valgrindFailure(output: String, namedOutput: String? = nil, processID: Int32, program: String)
        -> String?
    {
        let logPath = output + ".\(processID).log"
        let namedLog = (namedOutput ?? output) + ".\(processID).log"
        guard let bytes = try? BoundedFile.read(logPath, limit: 1 << 20, followLinks: false, prefix: true) else {
            return nil
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.drop { $0 == "=" || $0 == "-" || $0.isNumber || $0 == "#" }.trimmingWhitespace() }
        let name = program.split(separator: "/").last.map(String.init) ?? program
        let head = "\(valgrindVersion) could not run \(name): "
        if let dwarf = lines.first(where: { $0.hasPrefix("unhandled dwarf2") }) {
            return head + "its debug information (\(dwarf)); " + Self.debugInfoFix
        }
        if let giving = lines.firstIndex(where: { $0.hasPrefix("Valgrind: debuginfo reader") }) {
            let what = lines[giving].dropFirst("Valgrind:".count).trimmingWhitespace()
            return head + "its debug information (\(what)); " + Self.debugInfoFix
        }
        guard
            let crash = lines.firstIndex(where: { $0.hasPrefix("VALGRIND INTERNAL ERROR") })
                ?? lines.firstIndex(where: { $0.hasPrefix("valgrind: the 'impossible' happened") })
        else { return nil }
        let function = Self.runningFunction(lines)
        let what = lines[crash] + (function.map { " in \($0)" } ?? "")
        if function == "sigsuspend" {
            return head + what
                + "; this valgrind writes into the read-only signal mask libdispatch's dispatchMain() gives sigsuspend "
                + "(where an async main's main thread waits on Linux): make the main thread wait another way "
                + "(a synchronous main that starts the work in a Task and waits on a semaphore), or count with another valgrind"
        }
        return head + what + "; valgrind crashed, not the program (its log: \(namedLog)): count with another valgrind"
    }

    /// The function the thread valgrind was running (`running_tid=N`) was in, from the
    /// `Thread N: status …` block's first frame (`at 0x…: sigsuspend (sigsuspend.c:26)`).
    static func runningFunction(_ lines: [String]) -> String? {
        guard let running = lines.first(where: { $0.hasPrefix("running_tid=") }).map({ $0.dropFirst(12) }),
            let block = lines.firstIndex(where: { $0.hasPrefix("Thread \(running):") }),
            let frame = lines[(block + 1)...].prefix(3).first(where: { $0.hasPrefix("at 0x") }),
            let colon = frame.firstIndex(of: ":")
        else { return nil }
        let function = frame[frame.index(after: colon)...].trimmingWhitespace().prefix { $0 != " " && $0 != "(" }
        return function.isEmpty || function == "???" ? nil : String(function)
    }
}
