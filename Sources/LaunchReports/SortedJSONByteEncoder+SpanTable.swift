import LaunchAnalysis
import LaunchTracing

extension SortedJSONByteEncoder {
    /// Writes `table` as its `Codable` conformance does, each column on one
    /// line (`"begin" : [812345678901,42000,null]`), keys sorted.
    ///
    /// Spans are nearly all of a report: through `Encoder` each cell costs a
    /// call through a container, a line and an indentation; here it costs its
    /// digits. The columns, their keys and cells come from
    /// ``SpanTable/columns``, the one declaration the conformance reads too;
    /// `JSONReportWriterTests` checks the result against `JSONEncoder`'s.
    ///
    /// In a report (``SpanStrings/current`` set, every string collected) a
    /// column's cells go through one buffer the encoder keeps, a column at a
    /// time; a table on its own adds its strings as it goes, in the order
    /// ``SpanTable/cells(strings:)`` adds them, and is written from those.
    func spanTable(_ table: SpanTable) throws {
        let parent = frames.count - 1
        let (index, serial) = try open(.object, in: parent, serial: frames[parent].serial)
        let current = SpanStrings.current
        let strings = current ?? SpanStrings()
        let own = current == nil ? table.cells(strings: strings) : nil
        try table.spans.withUnsafeBufferPointer { spans in
            for member in Self.spanTableMembers {
                switch member {
                case .count:
                    try beginMember(SpanTable.countKey, of: index, serial: serial)
                    json.integer(spans.count)
                case .column(let position):
                    let column = SpanTable.columns[position]
                    if let own {
                        guard let values = own.columns[position] else { continue }
                        try beginMember(column.key, of: index, serial: serial)
                        cells(values, signed: column.isSigned)
                    } else {
                        guard SpanTable.cells(ofColumn: position, of: spans, strings: strings, into: &columnCells)
                        else { continue }
                        try beginMember(column.key, of: index, serial: serial)
                        cells(columnCells, signed: column.isSigned)
                    }
                case .waitTargets:
                    let targets = own?.waitTargets ?? table.waitTargetCells(strings: strings)
                    guard !targets.isEmpty else { continue }
                    try beginMember(SpanTable.waitTargetsKey, of: index, serial: serial)
                    cells(targets.map { $0 }, signed: false)
                case .strings:
                    guard own != nil else { continue }
                    try beginMember(SpanTable.stringsKey, of: index, serial: serial)
                    json.byte(UInt8(ascii: "["))
                    for (position, string) in strings.strings.enumerated() {
                        if position > 0 { json.byte(UInt8(ascii: ",")) }
                        json.string(string)
                    }
                    json.byte(UInt8(ascii: "]"))
                }
                valueWritten()
            }
        }
        try close(downTo: parent)
    }

    /// A member a span table may have.
    private enum SpanTableMember {
        case count, column(Int), waitTargets, strings

        var key: String {
            switch self {
            case .count: SpanTable.countKey
            case .column(let position): SpanTable.columns[position].key
            case .waitTargets: SpanTable.waitTargetsKey
            case .strings: SpanTable.stringsKey
            }
        }
    }

    /// Every member a span table may have, in key order (UTF-8 bytes, as ``sortMembers(of:)`` sorts).
    private static let spanTableMembers: [SpanTableMember] =
        ([.count, .waitTargets, .strings] + SpanTable.columns.indices.map { .column($0) })
        .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }

    /// Writes `values` on one line: `[1,-2,null]`.
    private func cells(_ values: [UInt64?], signed: Bool) {
        json.byte(UInt8(ascii: "["))
        values.withUnsafeBufferPointer { values in
            for index in values.indices {
                if index > 0 { json.byte(UInt8(ascii: ",")) }
                if let value = values[index] {
                    if signed { json.integer(Int(Int64(bitPattern: value))) } else { json.integer(value) }
                } else {
                    json.raw("null")
                }
            }
        }
        json.byte(UInt8(ascii: "]"))
    }
}
