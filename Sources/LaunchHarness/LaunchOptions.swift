import LaunchTracing

/// Why the app launched, with its payload, as UIKit's launch options say.
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
    public init(json text: String) throws(HarnessError) {
        let root: JSONValue
        do { root = try JSONValue.parse(text) } catch {
            throw .badLaunchOptions(key: "(json)", value: text, expected: error.description)
        }
        guard case .object(let members) = root else {
            throw .badLaunchOptions(key: "(top level)", value: root.summary, expected: "an object")
        }
        var reason = Reason.userTap
        var strings: [String: String] = [:]
        var payload: [String: String] = [:]
        var background: Bool?
        for (key, value) in members {
            switch (key, value) {
            case ("reason", .string(let text)):
                guard let parsed = Reason(rawValue: text) else {
                    throw .badLaunchOptions(
                        key: key, value: "\"\(text)\"", expected: "one of " + Reason.allCases.map(\.rawValue).joined(separator: ", "))
                }
                reason = parsed
            case ("background", .bool(let flag)): background = flag
            case ("payload", .object(let entries)):
                for (name, entry) in entries {
                    switch entry {
                    case .string(let text): payload[name] = text
                    case .number, .bool: payload[name] = entry.summary
                    default: throw .badLaunchOptions(key: "payload.\(name)", value: entry.summary, expected: "a string, number or boolean")
                    }
                }
            case ("url", .string(let text)), ("sourceApplication", .string(let text)),
                 ("activityType", .string(let text)), ("shortcutType", .string(let text)):
                strings[key] = text
            default:
                guard Self.keys.contains(key) else {
                    throw .badLaunchOptions(key: key, value: value.summary, expected: "one of the keys " + Self.keys.joined(separator: ", "))
                }
                let expected = key == "background" ? "true or false" : key == "payload" ? "an object" : "a string"
                throw .badLaunchOptions(key: key, value: value.summary, expected: expected)
            }
        }
        if reason == .url, strings["url"] == nil {
            throw .badLaunchOptions(key: "url", value: "missing", expected: "a URL when reason is \"url\"")
        }
        self.init(
            reason: reason, url: strings["url"], sourceApplication: strings["sourceApplication"],
            activityType: strings["activityType"], shortcutType: strings["shortcutType"], payload: payload,
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
