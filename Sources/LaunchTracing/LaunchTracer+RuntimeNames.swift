import _LaunchTracingShims

extension LaunchTracer {
    /// Begins a span whose name, file and line are known only at run time: what a
    /// bridge from another tracing API (swift-distributed-tracing's `withSpan`) records.
    ///
    /// The name and the files are interned: each distinct string is copied once into
    /// storage that lives as long as the process (never freed; a lock-protected
    /// table), and the span records the copy's address, as a literal's would be.
    /// So a name costs a lock and a table look-up more than a literal, and a
    /// program must not make names without end (a request id in a name): each new
    /// one takes memory for good. A name is kept to its first
    /// ``runtimeNameLimit`` bytes.
    ///
    /// ```swift
    /// let span = LaunchTracer.begin(named: operationName, fileID: fileID, line: line)
    /// defer { span.end() }
    /// ```
    ///
    /// - Parameters:
    ///   - name: What the work is called.
    ///   - category: What kind of work it is (a hint for reports).
    ///   - fileID: The call site's `#fileID` (`Module/File.swift`).
    ///   - filePath: The call site's `#filePath`, when known; else `fileID`.
    ///   - line: The call site's line.
    /// - Returns: The open span; call ``LaunchSpan/end()`` when the work is done.
    public static func begin(
        named name: String, category: SpanCategory = .general, fileID: String, filePath: String? = nil, line: UInt
    ) -> LaunchSpan {
        guard lp_is_enabled() != 0 else { return LaunchSpan(event: nil) }
        return LaunchSpan(
            event: RuntimeNames.record(
                UInt8(LP_EVENT_SPAN), category, name: name, fileID: fileID, filePath: filePath, line: line))
    }

    /// Records an instant whose name, file and line are known only at run time
    /// (interned as ``begin(named:category:fileID:filePath:line:)`` interns them).
    public static func instant(
        named name: String, category: SpanCategory = .general, fileID: String, filePath: String? = nil, line: UInt
    ) {
        guard lp_is_enabled() != 0 else { return }
        _ = RuntimeNames.record(
            UInt8(LP_EVENT_INSTANT), category, name: name, fileID: fileID, filePath: filePath, line: line)
    }

    /// The most bytes of a run-time name kept (the rest is cut, at a character).
    public static let runtimeNameLimit = 1_024
}

/// The interned copies of run-time names and files: NUL-terminated UTF-8 that is
/// never freed, so an event may point at it as it points at a literal.
enum RuntimeNames {
    private static let lock = Lock()
    nonisolated(unsafe) private static var table: [String: UnsafePointer<UInt8>] = [:]

    /// The lasting copy of `text` (at most ``LaunchTracer/runtimeNameLimit`` bytes of it), NUL-terminated:
    /// its length is taken when the trace is written.
    static func intern(_ text: String) -> UnsafePointer<UInt8> {
        var text = text
        if text.utf8.count > LaunchTracer.runtimeNameLimit {
            var cut = ""
            for character in text {
                guard cut.utf8.count + character.utf8.count <= LaunchTracer.runtimeNameLimit else { break }
                cut.append(character)
            }
            text = cut
        }
        return lock.withLock {
            if let copy = table[text] { return copy }
            let bytes = Array(text.utf8)
            let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + 1)
            storage.initialize(from: bytes, count: bytes.count)
            storage[bytes.count] = 0
            let copy = UnsafePointer(storage)
            table[text] = copy
            return copy
        }
    }

    /// Records one event of `kind` with interned strings on the calling thread.
    static func record(
        _ kind: UInt8, _ category: SpanCategory, name: String, fileID: String, filePath: String?, line: UInt
    ) -> UnsafeMutablePointer<lp_event>? {
        let name = intern(name)
        let file = intern(fileID)
        let path = filePath.map(intern) ?? file
        let buffer = lp_current_buffer() ?? ThreadRegistry.registerCurrentThread()
        return lp_record(
            buffer, kind, category.rawValue, UnsafeRawPointer(name), UnsafeRawPointer(file), UnsafeRawPointer(path),
            UInt32(truncatingIfNeeded: line), buffer.pointee.accounting)
    }
}
