/// How long launch may take: time to first frame, per hook, per named span,
/// and a stricter limit for launches into the background.
///
/// Apple asks for the first frame within 400 ms; that is the default. Budgets
/// come from code (``LaunchHarness``'s `LaunchApplication.main(delegate:budget:)`),
/// from a `launchprof.json` file, or from `launchprof measure --budget-ms`.
///
/// The file format (every key optional, values in milliseconds):
/// ```json
/// {
///   "timeToFirstFrameMs": 400,
///   "backgroundTimeToFirstFrameMs": 200,
///   "hooks": { "willFinishLaunching": 50, "didFinishLaunching": 200 },
///   "spans": { "DecodeCatalog": 30 },
///   "requiredForFirstFrame": ["ReadCatalog", "DecodeCatalog"]
/// }
/// ```
///
/// `requiredForFirstFrame` names the spans the first frame cannot be drawn
/// without. The advisor recommends deferring long CPU work that is not listed,
/// and moving off the main queue (or making cheaper) work that is.
public struct LaunchBudget: Sendable, Equatable {
    /// Spawn to first frame, milliseconds.
    public var timeToFirstFrameMs: Double
    /// Spawn to first frame when launched into the background, milliseconds.
    public var backgroundTimeToFirstFrameMs: Double
    /// Per launch hook (`willFinishLaunching`, `didFinishLaunching`), milliseconds.
    public var hooksMs: [String: Double]
    /// Per named span (median over runs), milliseconds.
    public var spansMs: [String: Double]
    /// Names of spans the first frame needs (the rest may be deferred).
    public var requiredForFirstFrame: [String]

    /// Apple's figure: first frame within 400 ms; 200 ms in the background.
    public static let `default` = LaunchBudget()

    public init(
        timeToFirstFrameMs: Double = 400, backgroundTimeToFirstFrameMs: Double = 200,
        hooksMs: [String: Double] = [:], spansMs: [String: Double] = [:], requiredForFirstFrame: [String] = []
    ) {
        self.requiredForFirstFrame = requiredForFirstFrame
        self.timeToFirstFrameMs = timeToFirstFrameMs
        self.backgroundTimeToFirstFrameMs = backgroundTimeToFirstFrameMs
        self.hooksMs = hooksMs
        self.spansMs = spansMs
    }

    static let hookNames: Set<String> = ["willFinishLaunching", "didFinishLaunching"]
    static let topLevelKeys = ["timeToFirstFrameMs", "backgroundTimeToFirstFrameMs", "hooks", "spans", "requiredForFirstFrame"]

    /// Parses the JSON budget format. Unknown keys, non-numbers and values that
    /// are not positive are rejected with the key and the value named.
    public init(json text: String) throws(LaunchBudgetError) {
        let root: JSONValue
        do {
            root = try JSONValue.parse(text)
        } catch {
            throw .invalidJSON(error.description)
        }
        guard case .object(let members) = root else {
            throw .badValue(key: "(top level)", value: root.summary, expected: "an object")
        }
        self.init()
        for (key, value) in members {
            switch key {
            case "timeToFirstFrameMs": timeToFirstFrameMs = try Self.milliseconds(value, key: key)
            case "backgroundTimeToFirstFrameMs": backgroundTimeToFirstFrameMs = try Self.milliseconds(value, key: key)
            case "hooks":
                hooksMs = try Self.table(value, key: key)
                if let unknown = hooksMs.keys.sorted().first(where: { !Self.hookNames.contains($0) }) {
                    throw .unknownKey("hooks.\(unknown)", expected: Self.hookNames.sorted())
                }
            case "spans": spansMs = try Self.table(value, key: key)
            case "requiredForFirstFrame":
                guard case .array(let names) = value else {
                    throw .badValue(key: key, value: value.summary, expected: "an array of span names")
                }
                requiredForFirstFrame = []
                for (index, name) in names.enumerated() {
                    guard case .string(let text) = name else {
                        throw .badValue(key: "\(key)[\(index)]", value: name.summary, expected: "a span name (a string)")
                    }
                    requiredForFirstFrame.append(text)
                }
            default: throw .unknownKey(key, expected: Self.topLevelKeys)
            }
        }
    }

    private static func milliseconds(_ value: JSONValue, key: String) throws(LaunchBudgetError) -> Double {
        guard case .number(let number) = value, number > 0 else {
            throw .badValue(key: key, value: value.summary, expected: "a positive number of milliseconds")
        }
        return number
    }

    private static func table(_ value: JSONValue, key: String) throws(LaunchBudgetError) -> [String: Double] {
        guard case .object(let members) = value else {
            throw .badValue(key: key, value: value.summary, expected: "an object of names to milliseconds")
        }
        var table: [String: Double] = [:]
        for (name, entry) in members { table[name] = try milliseconds(entry, key: "\(key).\(name)") }
        return table
    }

    /// The budget as JSON in the file format (keys sorted), for trace metadata and reports.
    public var json: String {
        func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
        func table(_ values: [String: Double]) -> String {
            "{" + values.keys.sorted().map { "\"\(jsonEscaped($0))\":\(number(values[$0]!))" }.joined(separator: ",") + "}"
        }
        let required = requiredForFirstFrame.map { "\"\(jsonEscaped($0))\"" }.joined(separator: ",")
        return "{\"backgroundTimeToFirstFrameMs\":\(number(backgroundTimeToFirstFrameMs)),\"hooks\":\(table(hooksMs)),"
            + "\"requiredForFirstFrame\":[\(required)],"
            + "\"spans\":\(table(spansMs)),\"timeToFirstFrameMs\":\(number(timeToFirstFrameMs))}"
    }
}

/// Escapes a string for inclusion between JSON quotes.
package func jsonEscaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// Why a budget could not be read.
public enum LaunchBudgetError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidJSON(String)
    case unknownKey(String, expected: [String])
    case badValue(key: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .invalidJSON(let detail): return detail
        case .unknownKey(let key, let expected):
            return "unknown key '\(key)' (expected one of: \(expected.joined(separator: ", ")))"
        case .badValue(let key, let value, let expected):
            return "'\(key)' is \(value); expected \(expected)"
        }
    }
}
