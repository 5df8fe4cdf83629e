import Foundation
import LaunchAnalysis

/// The report reader's fast path: parses every span table of a report
/// straight from its bytes, and returns the rest of the document with each
/// table replaced by a placeholder (`{"parsed":N}`) for `JSONDecoder`.
///
/// Spans are nearly all of a big report, and a span table is whole numbers
/// only: parsed here, a cell costs its digits, where `JSONDecoder` builds a
/// map of the whole document first and then decodes each number through a
/// container. The cells become spans through ``SpanTable/columns`` and
/// ``SpanTable/init(_:strings:)``, the declaration the `Codable` conformance
/// uses too (`SpanTableReadingTests` checks the two against each other).
///
/// The scan follows the JSON grammar over the whole document, and looks into
/// the values of `mainThreadSpans` and `otherSpans` keys that are objects, in
/// an object whose `spanStrings` came before them (as `JSONReport.render`
/// writes them). Anything it does not expect — a table with its own strings,
/// a number with a fraction, malformed JSON — it leaves where it is, for
/// `JSONDecoder` to read or to report: the fast path never changes what a
/// document decodes to, or the error it is refused with.
struct SpanTableScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0
    private var output: [UInt8] = []
    private var copiedUpTo = 0
    private var tables: [[SpanRecord]] = []
    /// The strings of the innermost open object that had `spanStrings`, and its depth.
    private var strings: [(strings: SpanStrings, depth: Int)] = []

    private struct Malformed: Error {}

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The document without its span tables, and the tables; nil when it has
    /// none that could be parsed here (or is not JSON the scan can follow).
    static func extract(_ data: Data) -> (remainder: Data, parsed: SpanTable.Parsed)? {
        data.withUnsafeBytes { raw in
            var scanner = SpanTableScanner(raw.bindMemory(to: UInt8.self))
            do {
                scanner.whitespace()
                try scanner.value(depth: 0)
            } catch {
                return nil
            }
            guard !scanner.tables.isEmpty else { return nil }
            scanner.output.append(contentsOf: UnsafeBufferPointer(rebasing: scanner.bytes[scanner.copiedUpTo...]))
            return (Data(scanner.output), SpanTable.Parsed(scanner.tables))
        }
    }

    // MARK: Grammar

    private mutating func value(depth: Int) throws {
        // Deeper than any report: JSONDecoder refuses it, without the recursion running out of stack here.
        guard at < bytes.count, depth < 256 else { throw Malformed() }
        switch bytes[at] {
        case UInt8(ascii: "{"): try object(depth: depth + 1)
        case UInt8(ascii: "["): try array(depth: depth + 1)
        case UInt8(ascii: "\""): _ = try string()
        default: try scalar()
        }
    }

    private mutating func object(depth: Int) throws {
        at += 1
        whitespace()
        defer { if strings.last?.depth == depth { strings.removeLast() } }
        if try peek() == UInt8(ascii: "}") {
            at += 1
            return
        }
        while true {
            let key = try string()
            whitespace()
            guard try peek() == UInt8(ascii: ":") else { throw Malformed() }
            at += 1
            whitespace()
            let start = at
            if equals(key, "spanStrings"), try peek() == UInt8(ascii: "[") {
                try value(depth: depth)
                let list = try JSONDecoder().decode(
                    [String].self, from: Data(UnsafeBufferPointer(rebasing: bytes[start..<at])))
                if strings.last?.depth == depth { strings.removeLast() }
                strings.append((SpanStrings(list), depth))
            } else if equals(key, "mainThreadSpans") || equals(key, "otherSpans"), try peek() == UInt8(ascii: "{"),
                let current = strings.last?.strings, let spans = table(strings: current)
            {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<start]))
                output.append(contentsOf: #"{"\#(SpanTable.Parsed.key)":\#(tables.count)}"#.utf8)
                copiedUpTo = at
                tables.append(spans)
            } else {
                at = start
                try value(depth: depth)
            }
            if try separator(closing: UInt8(ascii: "}")) { return }
        }
    }

    private mutating func array(depth: Int) throws {
        at += 1
        whitespace()
        if try peek() == UInt8(ascii: "]") {
            at += 1
            return
        }
        while true {
            try value(depth: depth)
            if try separator(closing: UInt8(ascii: "]")) { return }
        }
    }

    /// Skips a string; returns the range of its contents (escapes left as they are).
    private mutating func string() throws -> Range<Int> {
        guard try peek() == UInt8(ascii: "\"") else { throw Malformed() }
        at += 1
        let start = at
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "\""):
                at += 1
                return start..<at - 1
            case UInt8(ascii: "\\"): at += 2
            default: at += 1
            }
        }
        throw Malformed()
    }

    /// Skips a number, `true`, `false` or `null`.
    private mutating func scalar() throws {
        let start = at
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\n"),
                UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                guard at > start else { throw Malformed() }
                return
            default: at += 1
            }
        }
        guard at > start else { throw Malformed() }
    }

    /// After a member or element: a comma (skipped, with the whitespace after it)
    /// and false, or `closing` (skipped) and true; anything else is malformed.
    private mutating func separator(closing: UInt8) throws -> Bool {
        whitespace()
        let byte = try peek()
        at += 1
        if byte == closing { return true }
        guard byte == UInt8(ascii: ",") else { throw Malformed() }
        whitespace()
        return false
    }

    private mutating func whitespace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 {
            at += 1
        }
    }

    private func peek() throws -> UInt8 {
        guard at < bytes.count else { throw Malformed() }
        return bytes[at]
    }

    private func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
        range.count == text.utf8CodeUnitCount
            && memcmp(bytes.baseAddress! + range.lowerBound, text.utf8Start, range.count) == 0
    }

    // MARK: Span tables

    /// Parses the table at `at` into spans; nil (and `at` where it was) when it
    /// holds anything but counts and columns of whole numbers that fit.
    private mutating func table(strings: SpanStrings) -> [SpanRecord]? {
        let start = at
        guard let cells = try? tableCells(), let table = try? SpanTable(cells, strings: strings) else {
            at = start
            return nil
        }
        return table.spans
    }

    private mutating func tableCells() throws -> SpanTable.Cells {
        var cells = SpanTable.Cells(count: 0)
        var count: Int?
        /// The length of the last column read: the room the next one reserves.
        var length = 0
        at += 1
        whitespace()
        if try peek() == UInt8(ascii: "}") { throw Malformed() }
        while true {
            let key = try string()
            whitespace()
            guard try peek() == UInt8(ascii: ":") else { throw Malformed() }
            at += 1
            whitespace()
            if equals(key, "count") {
                guard count == nil, let value = try number(signed: false).flatMap({ Int(exactly: $0) }) else {
                    throw Malformed()
                }
                count = value
            } else if equals(key, "waitTargets") {
                cells.waitTargets = try numbers(signed: false, expected: 0).map {
                    guard let cell = $0 else { throw Malformed() }
                    return cell
                }
            } else {
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[key]), as: UTF8.self)
                guard let position = SpanTable.column(named: name), cells.columns[position] == nil else {
                    throw Malformed()
                }
                cells.columns[position] = try numbers(
                    signed: SpanTable.columns[position].isSigned, expected: count ?? length)
                length = cells.columns[position]!.count
            }
            if try separator(closing: UInt8(ascii: "}")) {
                guard let count else { throw Malformed() }
                cells.count = count
                return cells
            }
        }
    }

    /// An array of whole numbers and nulls, with room for `expected` of them.
    private mutating func numbers(signed: Bool, expected: Int) throws -> [UInt64?] {
        guard try peek() == UInt8(ascii: "[") else { throw Malformed() }
        at += 1
        whitespace()
        var values: [UInt64?] = []
        values.reserveCapacity(min(expected, bytes.count - at))
        if try peek() == UInt8(ascii: "]") {
            at += 1
            return values
        }
        while true {
            values.append(try number(signed: signed))
            if try separator(closing: UInt8(ascii: "]")) { return values }
        }
    }

    /// A whole number (its bit pattern, when `signed`), or nil for `null`.
    private mutating func number(signed: Bool) throws -> UInt64? {
        if try peek() == UInt8(ascii: "n") {
            guard at + 4 <= bytes.count, bytes[at + 1] == UInt8(ascii: "u"), bytes[at + 2] == UInt8(ascii: "l"),
                bytes[at + 3] == UInt8(ascii: "l")
            else { throw Malformed() }
            at += 4
            return nil
        }
        let negative = bytes[at] == UInt8(ascii: "-")
        if negative {
            guard signed else { throw Malformed() }
            at += 1
        }
        let start = at
        var magnitude: UInt64 = 0
        // Up to 19 digits cannot overflow (10^19 - 1 < 2^64): no check until there are more.
        let unchecked = min(bytes.count, at + 19)
        while at < unchecked, bytes[at] &- UInt8(ascii: "0") < 10 {
            magnitude = magnitude &* 10 &+ UInt64(bytes[at] &- UInt8(ascii: "0"))
            at += 1
        }
        while at < bytes.count, bytes[at] &- UInt8(ascii: "0") < 10 {
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[at] &- UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw Malformed() }
            magnitude = sum
            at += 1
        }
        // No digits, a leading zero, a fraction or an exponent: JSONDecoder decides.
        guard at > start, bytes[start] != UInt8(ascii: "0") || at == start + 1 else { throw Malformed() }
        if at < bytes.count,
            bytes[at] == UInt8(ascii: ".") || bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E")
        {
            throw Malformed()
        }
        guard signed else { return magnitude }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw Malformed() }
            return 0 &- magnitude
        }
        guard magnitude <= UInt64(Int64.max) else { throw Malformed() }
        return magnitude
    }
}
