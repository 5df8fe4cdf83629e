import Foundation
import LaunchAnalysis

/// The JSON report: the complete, lossless form of a measurement.
///
/// Keys are sorted and output is pretty-printed so reports diff well in review.
/// Its schema is documented in the DocC article "JSON Report Schema".
public enum JSONReport {
    /// Encodes `report`.
    public static func render(_ report: MeasurementReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var data = try encoder.encode(report)
        data.append(0x0A)
        return data
    }

    /// Reads a JSON report back. Errors name the file and what is wrong.
    public static func read(from path: String) throws(ReportError) -> MeasurementReport {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .cannotRead(path: path, reason: (error as NSError).localizedDescription)
        }
        struct Header: Decodable { let schemaVersion: Int? }
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw .malformed(path: path, problem: "not a JSON object")
        }
        guard let version = header.schemaVersion else {
            throw .malformed(path: path, problem: "no schemaVersion: not a launchprof report")
        }
        guard version == MeasurementReport.currentSchemaVersion else {
            throw .malformed(path: path, problem: "schemaVersion \(version) is not supported (this launchprof reads \(MeasurementReport.currentSchemaVersion))")
        }
        do {
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            return try decoder.decode(MeasurementReport.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .malformed(path: path, problem: "missing key '\(Self.path(context.codingPath + [key]))'")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw .malformed(path: path, problem: "bad value at '\(Self.path(context.codingPath))': \(context.debugDescription)")
        } catch let DecodingError.dataCorrupted(context) {
            throw .malformed(path: path, problem: "\(context.debugDescription) at '\(Self.path(context.codingPath))'")
        } catch {
            throw .malformed(path: path, problem: "\(error)")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
    }
}
