import LaunchTracing

/// A launch's spans as the JSON report stores them from schema 3 on: one
/// array of whole numbers per field (a column), instead of one object per span.
///
/// Names, files and wait targets' names are indexes into the report's
/// ``SpanStrings`` (or the table's own `strings`, when encoded outside a
/// report); a span's begin is the difference from the span before it, its end
/// the difference from its begin, so most numbers are a few digits. A column
/// whose cells are all absent is left out. At 10,000 spans a launch this is a
/// fifth of the size of an object per span, and a reader parses numbers only.
///
/// ```json
/// { "begin" : [812345678901,42000,31000], "count" : 3, "duration" : [60000,30000,61000], "name" : [0,1,0], … }
/// ```
///
/// ``columns`` is the one declaration of the fields: the `Codable`
/// conformance, the JSON writer's and the report reader's fast paths all
/// read and write spans through it.
public struct SpanTable: Sendable, Equatable {
    /// The spans, in the order they are stored.
    public var spans: [SpanRecord]

    /// A table of `spans`.
    public init(_ spans: [SpanRecord]) {
        self.spans = spans
    }
}

// MARK: - The columns

extension SpanTable {
    /// One field of ``SpanRecord`` as a column of whole numbers.
    public struct Column: Sendable {
        /// The column's key in the table object.
        public let key: String
        /// Cells are written as signed numbers (differences, lines, depths); otherwise unsigned.
        public let isSigned: Bool
        /// Cells may be absent (`null`); the column is left out when all are.
        public let isOptional: Bool
        /// The field the column holds: a cell is read and stored by a `switch` on it, with no
        /// call through a closure or a key path (a table is millions of cells).
        let field: Field

        init(_ key: String, _ field: Field, signed: Bool = false, optional: Bool = false) {
            self.key = key
            self.field = field
            isSigned = signed
            isOptional = optional
        }
    }

    /// The fields of ``SpanRecord`` a column can hold.
    enum Field: Sendable {
        case name, file, line, category, begin, duration, depth, flags, selfTime
        case selfCPU, runQueue, offCPU, voluntarySwitches, involuntarySwitches, majorFaults, thread
        case blocked(WaitKind), waitSamples(WaitKind)
    }

    /// Flag bits of the `flags` column.
    enum Flag {
        static let isOpen: UInt64 = 1, beforeFirstFrame: UInt64 = 2, usageIsEstimatedKnown: UInt64 = 4,
            usageIsEstimated: UInt64 = 8
        static let hasWaitSamples: UInt64 = 16, hasWaitTargets: UInt64 = 32
        static let all: UInt64 = 63
    }

    /// Every column, in the order cells are stored into a span.
    public static let columns: [Column] =
        [
            Column("name", .name), Column("file", .file), Column("line", .line, signed: true),
            Column("category", .category),
            Column("begin", .begin, signed: true), Column("duration", .duration, signed: true),
            Column("depth", .depth, signed: true),
            Column("flags", .flags), Column("self", .selfTime),
            Column("selfCPU", .selfCPU, optional: true), Column("runQueue", .runQueue, optional: true),
            Column("offCPU", .offCPU, optional: true), Column("voluntarySwitches", .voluntarySwitches, optional: true),
            Column("involuntarySwitches", .involuntarySwitches, optional: true),
            Column("majorFaults", .majorFaults, optional: true),
            Column("thread", .thread, optional: true),
        ] + WaitKind.allCases.map { Column("blocked." + $0.rawValue, .blocked($0), optional: true) }
        + WaitKind.allCases.map { Column("waitSamples." + $0.rawValue, .waitSamples($0), signed: true, optional: true) }

    /// The position of the column named `key` in ``columns``.
    public static func column(named key: String) -> Int? { columnPositions[key] }
    private static let columnPositions = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1.key, $0) })

    /// The key of the wait targets, a flat list of triples: the span's position
    /// in the table, the target kind's name and the target's name (both indexes
    /// into the strings), in order.
    public static let waitTargetsKey = "waitTargets"
    /// The key of the number of spans.
    public static let countKey = "count"
    /// The key of a table's own strings (a table encoded outside a report).
    public static let stringsKey = "strings"
}

// MARK: - A cell

extension SpanTable.Column {
    /// The cell of the span at `span` (read in place: a copy would cost more than the cell),
    /// whose predecessor in the table began at `previousBegin`; nil when absent.
    @inline(__always)
    func cell(_ span: UnsafePointer<SpanRecord>, _ previousBegin: UInt64, _ strings: SpanStrings) -> UInt64? {
        typealias Flag = SpanTable.Flag
        switch field {
        case .name: return UInt64(strings.index(of: span.pointee.name))
        case .file: return UInt64(strings.index(of: span.pointee.file))
        case .line: return UInt64(bitPattern: Int64(span.pointee.line))
        case .category: return UInt64(span.pointee.category.rawValue)
        case .begin: return span.pointee.beginNanoseconds &- previousBegin
        case .duration: return span.pointee.endNanoseconds &- span.pointee.beginNanoseconds
        case .depth: return UInt64(bitPattern: Int64(span.pointee.depth))
        case .flags:
            return (span.pointee.isOpen ? Flag.isOpen : 0) | (span.pointee.beforeFirstFrame ? Flag.beforeFirstFrame : 0)
                | (span.pointee.usageIsEstimated != nil ? Flag.usageIsEstimatedKnown : 0)
                | (span.pointee.usageIsEstimated == true ? Flag.usageIsEstimated : 0)
                | (span.pointee.waitSamples != nil ? Flag.hasWaitSamples : 0)
                | (span.pointee.waitTargets != nil ? Flag.hasWaitTargets : 0)
        case .selfTime: return span.pointee.selfNanoseconds
        case .selfCPU: return span.pointee.selfCPUNanoseconds
        case .runQueue: return span.pointee.runQueueNanoseconds
        case .offCPU: return span.pointee.offCPUNanoseconds
        case .voluntarySwitches: return span.pointee.voluntaryContextSwitches
        case .involuntarySwitches: return span.pointee.involuntaryContextSwitches
        case .majorFaults: return span.pointee.majorFaults
        case .thread: return span.pointee.threadID
        // Most spans wait on nothing: an empty dictionary is not hashed into.
        case .blocked(let kind):
            return span.pointee.blockedNanoseconds.isEmpty ? nil : span.pointee.blockedNanoseconds[kind]
        case .waitSamples(let kind): return span.pointee.waitSamples?[kind].map { UInt64(bitPattern: Int64($0)) }
        }
    }

    /// Stores `cell` into `span` (columns are stored in ``SpanTable/columns``
    /// order: `begin` before `duration`); returns what does not fit, if anything.
    @inline(__always)
    func store(_ span: inout SpanRecord, _ cell: UInt64?, _ previousBegin: UInt64, _ strings: SpanStrings) -> String? {
        typealias Flag = SpanTable.Flag
        switch field {
        case .name:
            guard let name = cell.flatMap(strings.string(at:)) else { return "a name index out of range" }
            span.name = name
        case .file:
            guard let file = cell.flatMap(strings.string(at:)) else { return "a file index out of range" }
            span.file = file
        case .line: span.line = Int(Int64(bitPattern: cell ?? 0))
        case .category:
            guard let raw = cell.flatMap(UInt8.init(exactly:)) else { return "a category over 255" }
            span.category = SpanCategory(rawValue: raw)
        case .begin: span.beginNanoseconds = previousBegin &+ (cell ?? 0)
        case .duration: span.endNanoseconds = span.beginNanoseconds &+ (cell ?? 0)
        case .depth: span.depth = Int(Int64(bitPattern: cell ?? 0))
        case .flags:
            let flags = cell ?? 0
            guard flags & ~Flag.all == 0 else { return "unknown flags \(flags)" }
            span.isOpen = flags & Flag.isOpen != 0
            span.beforeFirstFrame = flags & Flag.beforeFirstFrame != 0
            span.usageIsEstimated = flags & Flag.usageIsEstimatedKnown != 0 ? flags & Flag.usageIsEstimated != 0 : nil
            if flags & Flag.hasWaitSamples != 0 { span.waitSamples = span.waitSamples ?? [:] }
            if flags & Flag.hasWaitTargets != 0 { span.waitTargets = span.waitTargets ?? [] }
        case .selfTime: span.selfNanoseconds = cell ?? 0
        case .selfCPU: span.selfCPUNanoseconds = cell
        case .runQueue: span.runQueueNanoseconds = cell
        case .offCPU: span.offCPUNanoseconds = cell
        case .voluntarySwitches: span.voluntaryContextSwitches = cell
        case .involuntarySwitches: span.involuntaryContextSwitches = cell
        case .majorFaults: span.majorFaults = cell
        case .thread: span.threadID = cell
        case .blocked(let kind): if let cell { span.blockedNanoseconds[kind] = cell }
        case .waitSamples(let kind):
            guard let cell else { return nil }
            guard span.waitSamples != nil else { return "wait samples in a span whose flags say it has none" }
            span.waitSamples![kind] = Int(Int64(bitPattern: cell))
        }
        return nil
    }
}

// MARK: - Cells

extension SpanTable {
    /// A table as numbers: a cell array per column of ``columns`` (nil for a
    /// column left out), and the wait targets' triples.
    public struct Cells: Sendable, Equatable {
        /// How many spans.
        public var count: Int
        /// The cells of each column, by position in ``SpanTable/columns``; nil when the column is absent.
        public var columns: [[UInt64?]?]
        /// Wait-target triples (span position, kind string, name string).
        public var waitTargets: [UInt64]

        /// Empty cells for `count` spans, every column absent.
        public init(count: Int) {
            self.count = count
            columns = Array(repeating: nil, count: SpanTable.columns.count)
            waitTargets = []
        }
    }

    /// The cells of ``spans``, adding their strings to `strings`.
    public func cells(strings: SpanStrings) -> Cells {
        var cells = Cells(count: spans.count)
        let columns = Self.columns
        var values = [[UInt64?]](repeating: [], count: columns.count)
        for position in values.indices { values[position].reserveCapacity(spans.count) }
        var any = [Bool](repeating: false, count: columns.count)
        // Span by span, each read where it lies (a copy of a span per cell would cost more than the cell).
        spans.withUnsafeBufferPointer { spans in
            var previous: UInt64 = 0
            for index in spans.indices {
                for position in columns.indices {
                    let cell = columns[position].cell(spans.baseAddress! + index, previous, strings)
                    if cell != nil { any[position] = true }
                    values[position].append(cell)
                }
                previous = spans[index].beginNanoseconds
            }
        }
        for (position, column) in columns.enumerated() where any[position] || !column.isOptional {
            cells.columns[position] = values[position]
        }
        cells.waitTargets = waitTargetCells(strings: strings)
        return cells
    }

    /// The cells of column `position` (of ``columns``) of `spans` into `cells`,
    /// which it replaces: nil where a span has none. Returns false when every
    /// cell is absent (an optional column a table leaves out).
    ///
    /// A writer that writes a table a column at a time (the JSON report's)
    /// reuses one buffer for every column, where ``cells(strings:)`` makes an
    /// array per column. `strings` must hold every string of `spans` already
    /// (a report's, collected before its runs are written): a string added here
    /// would be added in another order than ``cells(strings:)`` adds it.
    public static func cells(
        ofColumn position: Int, of spans: UnsafeBufferPointer<SpanRecord>, strings: SpanStrings,
        into cells: inout [UInt64?]
    ) -> Bool {
        let column = columns[position]
        cells.removeAll(keepingCapacity: true)
        guard let base = spans.baseAddress else { return !column.isOptional }
        // An optional column is most often absent (a wait kind no span waited on): found so
        // without filling a cell; a present one is found at its first cell.
        if column.isOptional {
            var previous: UInt64 = 0
            var index = 0
            while index < spans.count, column.cell(base + index, previous, strings) == nil {
                previous = base[index].beginNanoseconds
                index += 1
            }
            if index == spans.count { return false }
        }
        cells.reserveCapacity(spans.count)
        var previous: UInt64 = 0
        for index in 0..<spans.count {
            cells.append(column.cell(base + index, previous, strings))
            previous = base[index].beginNanoseconds
        }
        return true
    }

    /// The wait targets of ``spans`` as ``Cells/waitTargets`` holds them, their
    /// strings looked up in (or added to) `strings`.
    public func waitTargetCells(strings: SpanStrings) -> [UInt64] {
        var cells: [UInt64] = []
        for (position, span) in spans.enumerated() {
            for target in span.waitTargets ?? [] {
                cells += [
                    UInt64(position), UInt64(strings.index(of: target.kind.rawValue)),
                    UInt64(strings.index(of: target.name)),
                ]
            }
        }
        return cells
    }

    /// The spans `cells` hold, their strings looked up in `strings`; throws a
    /// ``SpanTable/Problem`` naming what does not fit (a short column, an
    /// index out of range, a missing column).
    public init(_ cells: Cells, strings: SpanStrings) throws(Problem) {
        guard cells.count >= 0, cells.columns.count == Self.columns.count else {
            throw Problem("a table of \(cells.count) spans")
        }
        for (position, column) in Self.columns.enumerated() {
            if let values = cells.columns[position] {
                guard values.count == cells.count else {
                    throw Problem("column '\(column.key)' has \(values.count) cells for \(cells.count) spans")
                }
                if !column.isOptional, values.contains(where: { $0 == nil }) {
                    throw Problem("column '\(column.key)' has a null")
                }
            } else if !column.isOptional {
                throw Problem("no column '\(column.key)'")
            }
        }
        // Column by column: `begin` is stored into every span before `duration` reads it.
        var spans = [SpanRecord](repeating: Self.blank, count: cells.count)
        try spans.withUnsafeMutableBufferPointer { spans throws(Problem) in
            for (position, column) in Self.columns.enumerated() {
                guard let values = cells.columns[position] else { continue }
                try values.withUnsafeBufferPointer { values throws(Problem) in
                    for index in 0..<values.count {
                        let previous = index > 0 ? spans[index - 1].beginNanoseconds : 0
                        if let problem = column.store(&spans[index], values[index], previous, strings) {
                            throw Problem("span \(index): \(problem)")
                        }
                    }
                }
            }
        }
        guard cells.waitTargets.count % 3 == 0 else { throw Problem("wait targets are not in threes") }
        var at = 0
        while at < cells.waitTargets.count {
            let position = cells.waitTargets[at]
            guard position < UInt64(spans.count), spans[Int(position)].waitTargets != nil,
                let kind = strings.string(at: cells.waitTargets[at + 1]).flatMap(WaitTarget.Kind.init(rawValue:)),
                let name = strings.string(at: cells.waitTargets[at + 2])
            else { throw Problem("wait target \(at / 3) does not fit its table") }
            spans[Int(position)].waitTargets!.append(WaitTarget(kind: kind, name: name))
            at += 3
        }
        self.spans = spans
    }

    /// What a span is before its cells are stored into it.
    private static let blank = SpanRecord(
        name: "", category: .general, file: "", line: 0, beginNanoseconds: 0, endNanoseconds: 0, depth: 0,
        isOpen: false,
        beforeFirstFrame: false, selfNanoseconds: 0, selfCPUNanoseconds: nil, voluntaryContextSwitches: nil,
        involuntaryContextSwitches: nil, majorFaults: nil, blockedNanoseconds: [:], runQueueNanoseconds: nil,
        offCPUNanoseconds: nil, waitSamples: nil, waitTargets: nil, threadID: nil)

    /// Why a span table cannot be read.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        /// What does not fit.
        public let description: String
        init(_ description: String) { self.description = description }
    }
}

// MARK: - Codable

extension SpanTable: Codable {
    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        init(_ string: String) { stringValue = string }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// Encodes the table's columns; its strings go to ``SpanStrings/current``
    /// when a report is being encoded, and into the table (`strings`) otherwise.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        let strings = SpanStrings.current ?? SpanStrings()
        let cells = cells(strings: strings)
        try container.encode(cells.count, forKey: Key(Self.countKey))
        for (position, column) in Self.columns.enumerated() {
            guard let values = cells.columns[position] else { continue }
            if column.isSigned {
                let signed = values.map { $0.map { Int64(bitPattern: $0) } }
                if column.isOptional {
                    try container.encode(signed, forKey: Key(column.key))
                } else {
                    try container.encode(signed.map { $0! }, forKey: Key(column.key))
                }
            } else if column.isOptional {
                try container.encode(values, forKey: Key(column.key))
            } else {
                try container.encode(values.map { $0! }, forKey: Key(column.key))
            }
        }
        if !cells.waitTargets.isEmpty { try container.encode(cells.waitTargets, forKey: Key(Self.waitTargetsKey)) }
        if SpanStrings.current == nil { try container.encode(strings.strings, forKey: Key(Self.stringsKey)) }
    }

    /// Decodes a table (schema 3), or the array of span objects older reports hold.
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var spans: [SpanRecord] = []
            while !array.isAtEnd { spans.append(try array.decode(SpanRecord.self)) }
            self.init(spans)
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        if container.contains(Key(Parsed.key)) {
            let index = try container.decode(Int.self, forKey: Key(Parsed.key))
            guard let spans = Parsed.current?.take(index) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "a span table that was not parsed"))
            }
            self.init(spans)
            return
        }
        let strings: SpanStrings
        if let own = try container.decodeIfPresent([String].self, forKey: Key(Self.stringsKey)) {
            strings = SpanStrings(own)
        } else if let current = SpanStrings.current {
            strings = current
        } else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a span table without strings"))
        }
        var cells = Cells(count: try container.decode(Int.self, forKey: Key(Self.countKey)))
        for (position, column) in Self.columns.enumerated() where container.contains(Key(column.key)) {
            if column.isSigned {
                cells.columns[position] = try container.decode([Int64?].self, forKey: Key(column.key)).map {
                    $0.map { UInt64(bitPattern: $0) }
                }
            } else {
                cells.columns[position] = try container.decode([UInt64?].self, forKey: Key(column.key))
            }
        }
        cells.waitTargets = try container.decodeIfPresent([UInt64].self, forKey: Key(Self.waitTargetsKey)) ?? []
        do {
            try self.init(cells, strings: strings)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "span table: \(error.description)"))
        }
    }
}

// MARK: - Tables parsed ahead

extension SpanTable {
    /// Span tables a reader parsed straight from a report's bytes before
    /// decoding the rest of it, where the bytes now hold `{"parsed":N}`.
    ///
    /// The report reader's fast path (`JSONReport`) parses the columns
    /// itself, through ``SpanTable/columns`` and ``SpanTable/init(_:strings:)``,
    /// and hands the spans over here: `JSONDecoder` then reads a document a
    /// hundredth of the size. Tables are taken in document order, each once.
    public final class Parsed: @unchecked Sendable {
        private var tables: [[SpanRecord]]
        private var next = 0
        /// The key of a placeholder: `{"parsed":N}` stands for the Nth table.
        public static let key = "parsed"
        /// The tables parsed for the document being decoded on this task or thread, if any.
        @TaskLocal public static var current: Parsed?

        /// Tables parsed from a document, in document order.
        public init(_ tables: [[SpanRecord]]) {
            self.tables = tables
        }

        /// The Nth table, when N is the next one not taken; nil otherwise.
        func take(_ index: Int) -> [SpanRecord]? {
            guard index == next, index < tables.count else { return nil }
            next += 1
            defer { tables[index] = [] }
            return tables[index]
        }
    }
}
