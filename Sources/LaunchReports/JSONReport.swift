import Foundation
import LaunchAnalysis
import LaunchTracing

/// The JSON report: the complete, lossless form of a report document.
///
/// Keys are sorted and output is pretty-printed so reports diff well in review.
/// Every document has a top-level `kind` and a `schemaVersion` for that kind;
/// its schema is documented in the DocC article "JSON Report Schema".
public enum JSONReport {
    /// Encodes `document`.
    ///
    /// The text is `JSONEncoder`'s with `[.prettyPrinted, .sortedKeys,
    /// .withoutEscapingSlashes]` and non-finite numbers as `"inf"`, `"-inf"`,
    /// `"nan"`, except that the report's own members (and a comparison's)
    /// keep the order its conformance writes them in — the header first
    /// (`kind`, `schemaVersion`, …, `configuration`, `outcome`, `profile`), the
    /// runs last — so that a reader of the header reads a prefix; and each
    /// column of a span table (``SpanTable``) is one line of numbers. Written
    /// by ``SortedJSONByteEncoder`` from the same `Codable` conformances the
    /// reader uses.
    public static func render(_ document: ReportDocument) throws(ReportError) -> [UInt8] {
        do {
            var bytes: [UInt8]
            switch document {
            case .measurement(let report): bytes = try SortedJSONByteEncoder.encode(report, keepingOrder: keepingOrder)
            case .comparison(let report): bytes = try SortedJSONByteEncoder.encode(report, keepingOrder: keepingOrder)
            }
            bytes.append(0x0A)
            return bytes
        } catch {
            throw .cannotEncode(reason: "\(error)")
        }
    }

    /// Objects written in the order of their members' encoding.
    private static let keepingOrder: [any Any.Type] = [MeasurementReport.self, ComparisonReport.self]

    /// Reads a measurement report (schema 1, 2 or 3). Errors name the file and
    /// what is wrong, including a report of another `kind`.
    public static func read(from path: String) throws(ReportError) -> MeasurementReport {
        switch try readDocument(from: path) {
        case .measurement(let report): return report
        case .comparison:
            throw .malformed(
                path: path, problem: "a '\(ComparisonReport.kind)' report, not a \(MeasurementReport.kind) report")
        }
    }

    /// The largest report file read, in bytes: 1 GiB. Reports of many runs with
    /// many spans reach hundreds of megabytes; a larger file is refused rather
    /// than decoded (decoding costs several times the file's size in memory).
    public static let maximumFileBytes = 1 << 30

    /// Reads any report document this version knows, by its `kind`.
    ///
    /// Only a regular file of at most ``maximumFileBytes`` is read: a device,
    /// FIFO or directory at `path` is an error, never a read without end.
    public static func readDocument(from path: String) throws(ReportError) -> ReportDocument {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, limit: maximumFileBytes)
        } catch {
            throw .cannotRead(path: path, reason: error.description)
        }
        guard !bytes.isEmpty else { return try readDocument(Data(), path: path) }
        // The file's bytes as `Data` without a copy of them (hundreds of MB for a big report).
        // The `Data` keeps the array, which is never written to, alive until it is released;
        // it is only read (a reader that patches bytes patches a copy of its own).
        let data = bytes.withUnsafeBytes { raw in
            Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: raw.baseAddress!), count: raw.count,
                deallocator: .custom { _, _ in withExtendedLifetime(bytes) {} })
        }
        return try readDocument(data, path: path)
    }

    /// Decodes a report document from the bytes of a report file and checks the
    /// range of its numbers (``ReportRangeCheck``); errors name `path` (and the field).
    ///
    /// ```swift
    /// let document = try JSONReport.readDocument(bytes, path: "stdin")
    /// ```
    ///
    /// The span tables are parsed by the fast path (`SpanTableScanner`), the
    /// rest of the document by `JSONDecoder`; a document the fast path does
    /// not follow is decoded by `JSONDecoder` whole, to the same value or error.
    public static func readDocument(_ data: Data, path: String) throws(ReportError) -> ReportDocument {
        let document = try decodeDocument(data, path: path)
        // The range checks, a pass of their own over the decoded values.
        switch document {
        case .measurement(let report): try ReportRangeCheck(file: path).check(report)
        case .comparison(let report): try ReportRangeCheck(file: path).check(report)
        }
        return document
    }

    /// True when `data` begins a JSON object and the parser ran out of input inside it:
    /// a file cut short (a full disk, an interrupted copy), not one malformed on the way.
    /// Foundation says so only in its error's text; where it words it otherwise this is
    /// false, and the message is the general one.
    static func endsEarly(_ data: Data) -> Bool {
        let firstByte = data.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
        guard firstByte == UInt8(ascii: "{") else { return false }
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return false
        } catch {
            let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)").lowercased()
            return text.contains("end of file") || text.contains("unexpected end")
        }
    }

    /// Decodes a report document without the range checks: every `Double`
    /// exactly as written (the writer's round-trip tests read extreme values back).
    package static func decodeDocument(_ data: Data, path: String) throws(ReportError) -> ReportDocument {
        struct Header: Decodable {
            let kind: String?
            let schemaVersion: Int?
        }
        // Duplicate keys first: the decoder would keep the first, Python and jq the last.
        do { try StrictJSON.checkKeys(data) } catch { throw .malformed(path: path, problem: error.description) }
        let extracted = SpanTableScanner.extract(data)
        guard let header = try? JSONDecoder().decode(Header.self, from: extracted?.remainder ?? data) else {
            throw .malformed(
                path: path,
                problem: endsEarly(data) ? "the file ends inside its JSON object (cut short?)" : "not a JSON object")
        }
        guard let version = header.schemaVersion else {
            throw .malformed(path: path, problem: "no schemaVersion: not a launchprof report")
        }
        // Schema-1 measurement reports had no kind.
        let kind = header.kind ?? (version == 1 ? MeasurementReport.kind : nil)
        switch kind {
        case MeasurementReport.kind:
            guard (1...MeasurementReport.currentSchemaVersion).contains(version) else {
                throw .malformed(
                    path: path,
                    problem: "schemaVersion \(version) of a measurement report is not supported "
                        + "(this launchprof reads 1 to \(MeasurementReport.currentSchemaVersion))")
            }
            return .measurement(try decode(MeasurementReport.self, from: data, extracted: extracted, path: path))
        case ComparisonReport.kind:
            guard (1...ComparisonReport.currentSchemaVersion).contains(version) else {
                throw .malformed(
                    path: path,
                    problem: "schemaVersion \(version) of a comparison report is not supported "
                        + "(this launchprof reads 1 to \(ComparisonReport.currentSchemaVersion))")
            }
            return .comparison(try decode(ComparisonReport.self, from: data, extracted: extracted, path: path))
        case nil:
            throw .malformed(path: path, problem: "no kind: not a launchprof report")
        case let other?:
            throw .malformed(
                path: path,
                problem:
                    "a '\(other)' report: this launchprof reads \(MeasurementReport.kind) and \(ComparisonReport.kind) reports"
            )
        }
    }

    private static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, extracted: (remainder: Data, parsed: SpanTable.Parsed)?, path: String
    ) throws(ReportError) -> T {
        let decoder = StrictJSON.decoder()
        if let extracted,
            let value = try? SpanTable.Parsed.$current.withValue(
                extracted.parsed,
                operation: {
                    try decoder.decode(type, from: extracted.remainder)
                })
        {
            return value
        }
        // Without the fast path: the same value, or the error the whole document gives, in one line naming the field.
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw .malformed(path: path, problem: StrictJSON.problem(error, decoding: type, from: data).description)
        }
    }
}
