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
///   "requiredForFirstFrame": ["ReadCatalog", "DecodeCatalog"],
///   "gate": ["phase:didFinishLaunching"],
///   "minimumEffect": { "percent": 5, "milliseconds": 5 },
///   "alpha": 0.01
/// }
/// ```
///
/// The last three set how `launchprof compare` gates: which metrics besides the
/// primary one decide, the least change it calls a regression, and its significance level.
///
/// `requiredForFirstFrame` names the spans the first frame cannot be drawn
/// without. The advisor recommends deferring long CPU work that is not listed,
/// and moving off the main queue (or making cheaper) work that is.
public struct LaunchBudget: Sendable, Equatable, Codable {
    /// Spawn to first frame, milliseconds.
    public var timeToFirstFrameMs: Double
    /// Spawn to first frame when launched into the background, milliseconds.
    public var backgroundTimeToFirstFrameMs: Double
    /// Per launch hook, milliseconds.
    public var hooksMs: [LaunchHook: Double]
    /// Per named span (median over runs), milliseconds.
    public var spansMs: [String: Double]
    /// Names of spans the first frame needs (the rest may be deferred).
    public var requiredForFirstFrame: [String]
    /// Metrics a comparison gates on besides its primary one (`phase:didFinishLaunching`,
    /// `span:DecodeCatalog`, or `all`).
    public var gate: [String] = []
    /// The least slowdown a comparison calls a regression, percent (`minimumEffect.percent`).
    public var minimumEffectPercent: Double?
    /// The least slowdown a comparison calls a regression, milliseconds (`minimumEffect.milliseconds`).
    public var minimumEffectMs: Double?
    /// A comparison's significance level (`alpha`).
    public var alpha: Double?

    /// Apple's figure: first frame within 400 ms; 200 ms in the background.
    public static let `default` = LaunchBudget()

    /// The largest budget or minimum effect in milliseconds anywhere (budget
    /// file, trace metadata, `--budget-ms`, `--min-effect-ms`): one hour. A
    /// launch takes milliseconds to seconds; a larger value is a mistake, and
    /// is refused naming it rather than carried into arithmetic and text.
    public static let maximumMilliseconds: Double = 3_600_000

    /// The largest minimum effect in percent (`minimumEffect.percent`,
    /// `--min-effect`): 1,000 %, a launch eleven times as slow.
    public static let maximumEffectPercent: Double = 1_000

    public init(
        timeToFirstFrameMs: Double = 400, backgroundTimeToFirstFrameMs: Double = 200,
        hooksMs: [LaunchHook: Double] = [:], spansMs: [String: Double] = [:], requiredForFirstFrame: [String] = []
    ) {
        self.requiredForFirstFrame = requiredForFirstFrame
        self.timeToFirstFrameMs = timeToFirstFrameMs
        self.backgroundTimeToFirstFrameMs = backgroundTimeToFirstFrameMs
        self.hooksMs = hooksMs
        self.spansMs = spansMs
    }

    static let topLevelKeys = [
        "timeToFirstFrameMs", "backgroundTimeToFirstFrameMs", "hooks", "spans", "requiredForFirstFrame",
        "gate", "minimumEffect", "alpha",
    ]

    /// Parses the JSON budget format. Unknown keys, keys given twice in one object,
    /// non-numbers and values that are not positive are rejected with the key
    /// and the value named.
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
        // A parser keeps one of two values for a key, silently: refuse to guess.
        if let key = root.firstDuplicateKey() { throw .duplicateKey(key) }
        self.init()
        for (key, value) in members {
            switch key {
            case "timeToFirstFrameMs": timeToFirstFrameMs = try Self.milliseconds(value, key: key)
            case "backgroundTimeToFirstFrameMs": backgroundTimeToFirstFrameMs = try Self.milliseconds(value, key: key)
            case "hooks":
                let table = try Self.table(value, key: key)
                if let unknown = table.keys.sorted().first(where: { LaunchHook(rawValue: $0) == nil }) {
                    throw .unknownKey("hooks.\(unknown)", expected: LaunchHook.allCases.map(\.rawValue).sorted())
                }
                hooksMs = Dictionary(uniqueKeysWithValues: table.map { (LaunchHook(rawValue: $0.key)!, $0.value) })
            case "spans": spansMs = try Self.table(value, key: key)
            case "requiredForFirstFrame":
                guard case .array(let names) = value else {
                    throw .badValue(key: key, value: value.summary, expected: "an array of span names")
                }
                requiredForFirstFrame = []
                for (index, name) in names.enumerated() {
                    guard case .string(let text) = name else {
                        throw .badValue(
                            key: "\(key)[\(index)]", value: name.summary, expected: "a span name (a string)")
                    }
                    requiredForFirstFrame.append(text)
                }
            case "gate":
                gate = try Self.names(value, key: key, what: "metric names")
            case "minimumEffect":
                guard case .object(let entries) = value else {
                    throw .badValue(key: key, value: value.summary, expected: "an object with percent and milliseconds")
                }
                for (name, entry) in entries {
                    switch name {
                    case "percent":
                        minimumEffectPercent = try Self.nonNegative(
                            entry, key: "minimumEffect.percent", upTo: Self.maximumEffectPercent, unit: "percent")
                    case "milliseconds":
                        minimumEffectMs = try Self.nonNegative(
                            entry, key: "minimumEffect.milliseconds", upTo: Self.maximumMilliseconds,
                            unit: "milliseconds (one hour)")
                    default: throw .unknownKey("minimumEffect.\(name)", expected: ["milliseconds", "percent"])
                    }
                }
            case "alpha":
                guard case .number(let number) = value, number > 0, number < 1 else {
                    throw .badValue(key: key, value: value.summary, expected: "a number between 0 and 1")
                }
                alpha = number
            default: throw .unknownKey(key, expected: Self.topLevelKeys)
            }
        }
    }

    private static func nonNegative(
        _ value: JSONValue, key: String, upTo limit: Double, unit: String
    ) throws(LaunchBudgetError) -> Double {
        guard case .number(let number) = value, number >= 0, number <= limit else {
            throw .badValue(key: key, value: value.summary, expected: "a number from 0 to \(Int64(limit)) \(unit)")
        }
        return number
    }

    private static func names(_ value: JSONValue, key: String, what: String) throws(LaunchBudgetError) -> [String] {
        guard case .array(let items) = value else {
            throw .badValue(key: key, value: value.summary, expected: "an array of \(what)")
        }
        var names: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else {
                throw .badValue(key: "\(key)[\(index)]", value: item.summary, expected: "a name (a string)")
            }
            names.append(text)
        }
        return names
    }

    private static func milliseconds(_ value: JSONValue, key: String) throws(LaunchBudgetError) -> Double {
        guard case .number(let number) = value, number > 0, number <= maximumMilliseconds else {
            throw .badValue(
                key: key, value: value.summary,
                expected: "a positive number of milliseconds, at most \(Int64(maximumMilliseconds)) (one hour)")
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
            "{" + values.keys.sorted().map { "\"\(jsonEscaped($0))\":\(number(values[$0]!))" }.joined(separator: ",")
                + "}"
        }
        let required = requiredForFirstFrame.map { "\"\(jsonEscaped($0))\"" }.joined(separator: ",")
        let hooks = Dictionary(uniqueKeysWithValues: hooksMs.map { ($0.key.rawValue, $0.value) })
        var fields = [
            "\"backgroundTimeToFirstFrameMs\":\(number(backgroundTimeToFirstFrameMs))", "\"hooks\":\(table(hooks))",
            "\"requiredForFirstFrame\":[\(required)]", "\"spans\":\(table(spansMs))",
            "\"timeToFirstFrameMs\":\(number(timeToFirstFrameMs))",
        ]
        if !gate.isEmpty {
            fields.append("\"gate\":[" + gate.map { "\"\(jsonEscaped($0))\"" }.joined(separator: ",") + "]")
        }
        if minimumEffectPercent != nil || minimumEffectMs != nil {
            let entries = [("milliseconds", minimumEffectMs), ("percent", minimumEffectPercent)]
                .compactMap { name, value in value.map { "\"\(name)\":\(number($0))" } }
            fields.append("\"minimumEffect\":{" + entries.joined(separator: ",") + "}")
        }
        if let alpha { fields.append("\"alpha\":\(number(alpha))") }
        return "{" + fields.sorted().joined(separator: ",") + "}"
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
        case _ where scalar.value < 0x20:
            out +=
                "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// Why a budget could not be read.
public enum LaunchBudgetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not JSON; the detail names the byte offset.
    case invalidJSON(String)
    /// A key the format does not have.
    case unknownKey(String, expected: [String])
    /// A key with a value it cannot take.
    case badValue(key: String, value: String, expected: String)
    /// A key given twice in the same object (its path, such as `hooks.didFinishLaunching`).
    case duplicateKey(String)
    /// A budget file at `path` could not be read, or held a bad budget (`problem`).
    case badFile(path: String, problem: String)

    /// One line naming the key, the value, or the file.
    public var description: String {
        switch self {
        case .badFile(let path, let problem): return "\(path): \(problem)"
        case .invalidJSON(let detail): return detail
        case .unknownKey(let key, let expected):
            return "unknown key '\(key)' (expected one of: \(expected.joined(separator: ", ")))"
        case .badValue(let key, let value, let expected):
            return "'\(key)' is \(value); expected \(expected)"
        case .duplicateKey(let key):
            return "key '\(key)' appears twice (give each key once)"
        }
    }
}

extension LaunchBudget {
    private enum CodingKeys: String, CodingKey {
        case timeToFirstFrameMs, backgroundTimeToFirstFrameMs, hooks, spans, requiredForFirstFrame
        case gate, minimumEffect, alpha
    }

    private struct MinimumEffect: Codable {
        var percent: Double?
        var milliseconds: Double?
    }

    /// Decodes the `launchprof.json` format (every key optional, as in ``init(json:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        timeToFirstFrameMs =
            try container.decodeIfPresent(Double.self, forKey: .timeToFirstFrameMs) ?? timeToFirstFrameMs
        backgroundTimeToFirstFrameMs =
            try container.decodeIfPresent(Double.self, forKey: .backgroundTimeToFirstFrameMs)
            ?? backgroundTimeToFirstFrameMs
        hooksMs = try container.decodeIfPresent([LaunchHook: Double].self, forKey: .hooks) ?? [:]
        spansMs = try container.decodeIfPresent([String: Double].self, forKey: .spans) ?? [:]
        requiredForFirstFrame = try container.decodeIfPresent([String].self, forKey: .requiredForFirstFrame) ?? []
        gate = try container.decodeIfPresent([String].self, forKey: .gate) ?? []
        let effect = try container.decodeIfPresent(MinimumEffect.self, forKey: .minimumEffect)
        minimumEffectPercent = effect?.percent
        minimumEffectMs = effect?.milliseconds
        alpha = try container.decodeIfPresent(Double.self, forKey: .alpha)
    }

    /// Encodes the `launchprof.json` format, so a report's budget can be saved as a budget file.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(timeToFirstFrameMs, forKey: .timeToFirstFrameMs)
        try container.encode(backgroundTimeToFirstFrameMs, forKey: .backgroundTimeToFirstFrameMs)
        try container.encode(hooksMs, forKey: .hooks)
        try container.encode(spansMs, forKey: .spans)
        try container.encode(requiredForFirstFrame, forKey: .requiredForFirstFrame)
        if !gate.isEmpty { try container.encode(gate, forKey: .gate) }
        if minimumEffectPercent != nil || minimumEffectMs != nil {
            try container.encode(
                MinimumEffect(percent: minimumEffectPercent, milliseconds: minimumEffectMs), forKey: .minimumEffect)
        }
        try container.encodeIfPresent(alpha, forKey: .alpha)
    }

    /// The largest budget file read, in bytes (1 MiB; a budget is a few kilobytes).
    public static let maximumFileBytes = 1 << 20

    /// Reads a budget file (`launchprof.json`). Errors name the file, the key and the value.
    ///
    /// Only a regular file of at most ``maximumFileBytes`` is read: a device,
    /// FIFO or directory at `path` is an error, never a read without end.
    ///
    /// - Throws: ``LaunchBudgetError/badFile(path:problem:)``.
    public init(contentsOf path: String) throws(LaunchBudgetError) {
        guard let budget = try Self.read(path, missingIsNil: false) else {
            throw .badFile(path: path, problem: "cannot read the file")
        }
        self = budget
    }

    /// The budget in the file at `path`; nil when nothing is there and `missingIsNil`.
    /// The file is opened once: whether it is there is the open's answer.
    private static func read(_ path: String, missingIsNil: Bool) throws(LaunchBudgetError) -> LaunchBudget? {
        let bytes: [UInt8]
        do { bytes = try BoundedFile.read(path, limit: maximumFileBytes) } catch {
            if missingIsNil, error.isMissing { return nil }
            throw .badFile(path: path, problem: "cannot read the file: \(error)")
        }
        do {
            return try LaunchBudget(json: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .badFile(path: path, problem: error.description)
        }
    }
}

extension LaunchBudget {
    /// Reads the budget file at `path` if there is one there, as for a default
    /// `launchprof.json`; nil when nothing exists at `path`.
    ///
    /// - Throws: ``LaunchBudgetError/badFile(path:problem:)`` for a file that is
    ///   there but unreadable or not a budget.
    public static func loadIfPresent(path: String) throws(LaunchBudgetError) -> LaunchBudget? {
        try read(path, missingIsNil: true)
    }
}
