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
    func spanTable(_ table: SpanTable) throws {
        let parent = frames.count - 1
        let (index, serial) = try open(.object, in: parent, serial: frames[parent].serial)
        let current = SpanStrings.current
        let strings = current ?? SpanStrings()
        let cells = table.cells(strings: strings)
        var members: [(key: String, write: () -> Void)] = [(SpanTable.countKey, { self.json.integer(cells.count) })]
        for (position, column) in SpanTable.columns.enumerated() {
            guard let values = cells.columns[position] else { continue }
            members.append((column.key, { self.cells(values, signed: column.isSigned) }))
        }
        if !cells.waitTargets.isEmpty {
            members.append((SpanTable.waitTargetsKey, { self.cells(cells.waitTargets.map { $0 }, signed: false) }))
        }
        if current == nil {
            members.append((SpanTable.stringsKey, {
                self.json.byte(UInt8(ascii: "["))
                for (position, string) in strings.strings.enumerated() {
                    if position > 0 { self.json.byte(UInt8(ascii: ",")) }
                    self.json.string(string)
                }
                self.json.byte(UInt8(ascii: "]"))
            }))
        }
        members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for member in members {
            try beginMember(member.key, of: index, serial: serial)
            member.write()
            valueWritten()
        }
        try close(downTo: parent)
    }

    /// Writes `values` on one line: `[1,-2,null]`.
    private func cells(_ values: [UInt64?], signed: Bool) {
        json.byte(UInt8(ascii: "["))
        var first = true
        for value in values {
            if !first { json.byte(UInt8(ascii: ",")) }
            first = false
            if let value {
                if signed { json.integer(Int(Int64(bitPattern: value))) } else { json.integer(value) }
            } else {
                json.raw("null")
            }
        }
        json.byte(UInt8(ascii: "]"))
    }
}
