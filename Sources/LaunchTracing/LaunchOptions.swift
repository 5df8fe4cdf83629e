/// Why the app launched, with its payload, as UIKit's launch options say.
///
/// Part of the launch contract (``LaunchContract``): `launchprof measure
/// --launch-option KEY=VALUE` builds them (``init(keyValuePairs:)``), hands them
/// to the app as JSON, the harness records them in the trace, and the report
/// carries them as an object with the same keys.
///
/// Under `launchprof measure` the options come from `LAUNCHPROF_LAUNCH_OPTIONS`,
/// a JSON object:
/// ```json
/// {"reason": "url", "url": "readinglist://book/42", "background": false}
/// ```
/// Keys: `reason` (one of ``Reason``'s raw values; default `userTap`), `url`,
/// `sourceApplication`, `activityType`, `shortcutType`, `payload` (an object of
/// scalars) and `background` (default: true for remote notifications, location
/// and background fetch).
public struct LaunchOptions: Sendable, Equatable {
    /// The reason for the launch.
    public enum Reason: String, Sendable, CaseIterable {
        case userTap, url, userActivity, remoteNotification, location, backgroundFetch, shortcutItem

        /// Reasons the system launches an app for into the background by default.
        public var isBackgroundByDefault: Bool {
            self == .remoteNotification || self == .location || self == .backgroundFetch
        }
    }

    public var reason: Reason
    /// The URL to open (`reason == .url`).
    public var url: String?
    /// The app that asked to open the URL.
    public var sourceApplication: String?
    /// The user activity type (`reason == .userActivity`), e.g. a Handoff activity.
    public var activityType: String?
    /// The home-screen quick action (`reason == .shortcutItem`).
    public var shortcutType: String?
    /// The notification or activity payload, as scalar strings.
    public var payload: [String: String]
    /// True when launched into the background (no UI; stricter time limit).
    public var isBackground: Bool

    public init(
        reason: Reason = .userTap, url: String? = nil, sourceApplication: String? = nil,
        activityType: String? = nil, shortcutType: String? = nil, payload: [String: String] = [:],
        isBackground: Bool? = nil
    ) {
        self.reason = reason
        self.url = url
        self.sourceApplication = sourceApplication
        self.activityType = activityType
        self.shortcutType = shortcutType
        self.payload = payload
        self.isBackground = isBackground ?? reason.isBackgroundByDefault
    }

    /// A user tapped the icon: the most common launch.
    public static let userTap = LaunchOptions()

    static let keys = ["reason", "url", "sourceApplication", "activityType", "shortcutType", "payload", "background"]

    /// Parses the JSON form. Errors name the key and the value.
    public init(json text: String) throws(LaunchOptionsError) {
        let root: JSONValue
        do { root = try JSONValue.parse(text) } catch {
            throw LaunchOptionsError.badValue(key: "(json)", value: text, expected: error.description)
        }
        guard case .object(let members) = root else {
            throw LaunchOptionsError.badValue(key: "(top level)", value: root.summary, expected: "an object")
        }
        var reason = Reason.userTap
        // Four variables, not a dictionary keyed by strings: the harness reads these options
        // before the first hook, where the first such dictionary a process makes costs a search
        // of every loaded library's protocol conformances (0.23 ms on a 2-core virtual machine:
        // Benchmarks/RESULTS.md). A payload is a dictionary all the same (it is one in the API).
        var url: String?
        var sourceApplication: String?
        var activityType: String?
        var shortcutType: String?
        var payload: [String: String] = [:]
        var background: Bool?
        for (key, value) in members {
            switch (key, value) {
            case ("reason", .string(let text)):
                guard let parsed = Reason(rawValue: text) else {
                    throw LaunchOptionsError.badValue(
                        key: key, value: "\"\(text)\"",
                        expected: "one of " + Reason.allCases.map(\.rawValue).joined(separator: ", "))
                }
                reason = parsed
            case ("background", .bool(let flag)): background = flag
            case ("payload", .object(let entries)):
                for (name, entry) in entries {
                    switch entry {
                    case .string(let text): payload[name] = text
                    case .number, .bool: payload[name] = entry.summary
                    default:
                        throw LaunchOptionsError.badValue(
                            key: "payload.\(name)", value: entry.summary, expected: "a string, number or boolean")
                    }
                }
            case ("url", .string(let text)): url = text
            case ("sourceApplication", .string(let text)): sourceApplication = text
            case ("activityType", .string(let text)): activityType = text
            case ("shortcutType", .string(let text)): shortcutType = text
            default:
                guard Self.keys.contains(key) else {
                    throw LaunchOptionsError.badValue(
                        key: key, value: value.summary, expected: "one of the keys " + Self.keys.joined(separator: ", ")
                    )
                }
                let expected = key == "background" ? "true or false" : key == "payload" ? "an object" : "a string"
                throw LaunchOptionsError.badValue(key: key, value: value.summary, expected: expected)
            }
        }
        if reason == .url, url == nil {
            throw LaunchOptionsError.badValue(key: "url", value: "missing", expected: "a URL when reason is \"url\"")
        }
        self.init(
            reason: reason, url: url, sourceApplication: sourceApplication,
            activityType: activityType, shortcutType: shortcutType, payload: payload,
            isBackground: background)
    }

    /// The JSON form (keys sorted), as written into the trace's metadata.
    public var json: String {
        var fields: [String] = ["\"background\":\(isBackground)", "\"reason\":\"\(reason.rawValue)\""]
        if let url { fields.append("\"url\":\"\(jsonEscaped(url))\"") }
        if let sourceApplication { fields.append("\"sourceApplication\":\"\(jsonEscaped(sourceApplication))\"") }
        if let activityType { fields.append("\"activityType\":\"\(jsonEscaped(activityType))\"") }
        if let shortcutType { fields.append("\"shortcutType\":\"\(jsonEscaped(shortcutType))\"") }
        if !payload.isEmpty {
            let entries = payload.keys.sorted().map { "\"\(jsonEscaped($0))\":\"\(jsonEscaped(payload[$0]!))\"" }
            fields.append("\"payload\":{" + entries.joined(separator: ",") + "}")
        }
        return "{" + fields.sorted().joined(separator: ",") + "}"
    }
}

extension LaunchOptions {
    /// Builds options from `KEY=VALUE` pairs, as `launchprof measure
    /// --launch-option` takes them: the keys of the JSON form, `payload.NAME=VALUE`
    /// for a payload entry, and `background=true|false`.
    ///
    /// ```swift
    /// let options = try LaunchOptions(keyValuePairs: ["reason=url", "url=app://book/42"])
    /// ```
    public init(keyValuePairs pairs: [String]) throws(LaunchOptionsError) {
        var reason = Reason.userTap
        var strings: [String: String] = [:]
        var payload: [String: String] = [:]
        var background: Bool?
        var seen: Set<String> = []
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw .malformedPair(pair)
            }
            let key = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            guard seen.insert(key).inserted else { throw .repeatedKey(key) }
            if key.hasPrefix("payload.") {
                let name = String(key.dropFirst("payload.".count))
                guard !name.isEmpty else {
                    throw .badValue(key: key, value: "\"\(value)\"", expected: "a name after 'payload.'")
                }
                payload[name] = value
                continue
            }
            switch key {
            case "reason":
                guard let parsed = Reason(rawValue: value) else {
                    throw .badValue(
                        key: key, value: "\"\(value)\"",
                        expected: "one of " + Reason.allCases.map(\.rawValue).joined(separator: ", "))
                }
                reason = parsed
            case "background":
                guard value == "true" || value == "false" else {
                    throw .badValue(key: key, value: "\"\(value)\"", expected: "true or false")
                }
                background = value == "true"
            case "url", "sourceApplication", "activityType", "shortcutType":
                strings[key] = value
            default:
                throw .badValue(
                    key: key, value: "\"\(value)\"",
                    expected: "one of the keys "
                        + (Self.keys.filter { $0 != "payload" } + ["payload.NAME"]).joined(separator: ", "))
            }
        }
        if reason == .url, strings["url"] == nil {
            throw .badValue(key: "url", value: "missing", expected: "a URL when reason is \"url\"")
        }
        self.init(
            reason: reason, url: strings["url"], sourceApplication: strings["sourceApplication"],
            activityType: strings["activityType"], shortcutType: strings["shortcutType"], payload: payload,
            isBackground: background)
    }
}

extension LaunchOptions: Codable {
    private enum CodingKeys: String, CodingKey {
        case reason, url, sourceApplication, activityType, shortcutType, payload, background
    }

    /// Decodes the object form (the keys of ``json``); a missing `background`
    /// takes the reason's default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let reasonText = try container.decodeIfPresent(String.self, forKey: .reason) ?? Reason.userTap.rawValue
        guard let reason = Reason(rawValue: reasonText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .reason, in: container, debugDescription: "unknown launch reason '\(reasonText)'")
        }
        self.init(
            reason: reason, url: try container.decodeIfPresent(String.self, forKey: .url),
            sourceApplication: try container.decodeIfPresent(String.self, forKey: .sourceApplication),
            activityType: try container.decodeIfPresent(String.self, forKey: .activityType),
            shortcutType: try container.decodeIfPresent(String.self, forKey: .shortcutType),
            payload: try container.decodeIfPresent([String: String].self, forKey: .payload) ?? [:],
            isBackground: try container.decodeIfPresent(Bool.self, forKey: .background))
    }

    /// Encodes the object form: the same keys as ``json`` and `--launch-option`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reason.rawValue, forKey: .reason)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(sourceApplication, forKey: .sourceApplication)
        try container.encodeIfPresent(activityType, forKey: .activityType)
        try container.encodeIfPresent(shortcutType, forKey: .shortcutType)
        if !payload.isEmpty { try container.encode(payload, forKey: .payload) }
        try container.encode(isBackground, forKey: .background)
    }
}

/// Why launch options could not be read: the message names the key and the value.
public enum LaunchOptionsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A key with a value it cannot take (or an unknown key).
    case badValue(key: String, value: String, expected: String)
    /// A `KEY=VALUE` pair without its `=` or its key.
    case malformedPair(String)
    /// The same key given twice.
    case repeatedKey(String)

    /// One line naming the key and value, with line breaks shown as `\n`.
    public var description: String {
        let text: String
        switch self {
        case .badValue(let key, let value, let expected):
            text = "bad launch option '\(key)': \(value); expected \(expected)"
        case .malformedPair(let pair): text = "a launch option takes KEY=VALUE, not '\(pair)'"
        case .repeatedKey(let key): text = "launch option '\(key)' was given twice"
        }
        return text.replacingLineBreaks()
    }
}

extension String {
    /// The text with line breaks written as `\n` and `\r`, for one-line messages.
    package func replacingLineBreaks() -> String {
        var out = ""
        for character in self {
            switch character {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\r\n": out += "\\r\\n"
            default: out.append(character)
            }
        }
        return out
    }
}
