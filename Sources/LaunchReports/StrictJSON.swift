import Foundation

/// Decodes the files launchprof stored (reports, spread files) strictly, with
/// one line naming the field for every refusal and never `DecodingError`'s own
/// text: a key an object holds twice is refused (``JSONDuplicateKeys``), a number
/// out of its field's range is named with the range (``JSONNumberProblem``).
///
/// ```swift
/// let spread = try StrictJSON.decode(SessionSpread.self, from: data)
/// // throws "stored.spread.json: …" problems as `StrictJSON.Problem`
/// ```
public enum StrictJSON {
    /// What is wrong with a document, on one line: `runs[3].status appears twice in one object`.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The decoder every stored file is read with: `inf`, `-inf` and `nan` as strings, as the writers put them.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// `type` decoded from `data`, after the check for duplicate keys.
    ///
    /// - Throws: a ``Problem`` naming the key or field.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(Problem) -> T {
        try checkKeys(data)
        do {
            return try decoder().decode(type, from: data)
        } catch {
            throw problem(error, decoding: type, from: data)
        }
    }

    /// Throws when an object of `data` holds a key twice.
    public static func checkKeys(_ data: Data) throws(Problem) {
        if let path = JSONDuplicateKeys.find(in: data) {
            throw Problem(description: "'\(path)' appears twice in one object (readers differ on which one counts)")
        }
    }

    /// The one-line problem of `error`, thrown by decoding `type` from `data`.
    public static func problem<T: Decodable>(_ error: any Error, decoding type: T.Type, from data: Data) -> Problem {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return Problem(description: "missing key '\(path(context.codingPath + [key]))'")
        case DecodingError.typeMismatch(let expected, let context):
            return Problem(description: "'\(path(context.codingPath))' is not \(kind(expected))")
        case DecodingError.valueNotFound(let expected, let context):
            return Problem(description: "'\(path(context.codingPath))' is null where \(kind(expected)) belongs")
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            return Problem(description: "'\(path(context.codingPath))': \(context.debugDescription)")
        case DecodingError.dataCorrupted(let context):
            // A number the decoder cannot hold is reported as "not valid JSON" with no path: find it.
            if let number = JSONNumberProblem.find(in: data, failing: { failsAtTheRoot(type, $0) }) {
                return Problem(description: number)
            }
            let detail = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"] as? String
            return Problem(
                description: "not valid JSON"
                    + (detail.map { ": " + $0.replacingOccurrences(of: "\n", with: " ") } ?? ""))
        case is DecodingError:
            return Problem(description: "cannot be decoded")
        default:
            return Problem(description: "\(error)")
        }
    }

    /// True when decoding `data` as `type` fails as a number out of range does: data corrupted, no path.
    private static func failsAtTheRoot<T: Decodable>(_ type: T.Type, _ data: Data) -> Bool {
        do {
            _ = try decoder().decode(type, from: data)
            return false
        } catch DecodingError.dataCorrupted(let context) {
            return context.codingPath.isEmpty
        } catch {
            return false
        }
    }

    /// What a value of `type` is, in words: "a whole number", "a string".
    static func kind(_ type: Any.Type) -> String {
        let integers: [Any.Type] = [
            Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self,
            UInt64.self,
        ]
        if integers.contains(where: { $0 == type }) { return "a whole number" }
        if type == Double.self || type == Float.self { return "a number" }
        if type == String.self { return "a string" }
        if type == Bool.self { return "true or false" }
        let name = String(describing: type)
        if name.hasPrefix("Array<") || name.hasPrefix("[") && !name.contains(":") { return "an array" }
        return "an object"
    }

    /// `runs[3].status`.
    static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
    }
}
