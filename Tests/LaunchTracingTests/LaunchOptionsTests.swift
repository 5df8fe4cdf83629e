import Foundation
import LaunchTracing
import Testing

/// Launch options: why the app launched, as `LAUNCHPROF_LAUNCH_OPTIONS` JSON.
@Suite("Launch options")
struct LaunchOptionsTests {
    /// A JSON form and what it must parse to.
    struct Parsed: Sendable, CustomStringConvertible {
        var json: String
        var options: LaunchOptions
        var description: String { json }
    }

    static let everyReason: [Parsed] = [
        Parsed(json: #"{"reason": "userTap"}"#, options: LaunchOptions(reason: .userTap, isBackground: false)),
        Parsed(
            json: #"{"reason": "url", "url": "readinglist://book/42", "sourceApplication": "com.example.mail"}"#,
            options: LaunchOptions(
                reason: .url, url: "readinglist://book/42", sourceApplication: "com.example.mail", isBackground: false)),
        Parsed(
            json: #"{"reason": "userActivity", "activityType": "com.example.reading", "payload": {"bookID": 42}}"#,
            options: LaunchOptions(
                reason: .userActivity, activityType: "com.example.reading", payload: ["bookID": "42"],
                isBackground: false)),
        Parsed(
            json: #"{"reason": "remoteNotification", "payload": {"aps.badge": 3, "kind": "newBook", "silent": true}}"#,
            options: LaunchOptions(
                reason: .remoteNotification, payload: ["aps.badge": "3", "kind": "newBook", "silent": "true"],
                isBackground: true)),
        Parsed(
            json: #"{"reason": "location", "payload": {"latitude": 59.33}}"#,
            options: LaunchOptions(reason: .location, payload: ["latitude": "59.33"], isBackground: true)),
        Parsed(
            json: #"{"reason": "backgroundFetch"}"#,
            options: LaunchOptions(reason: .backgroundFetch, isBackground: true)),
        Parsed(
            json: #"{"reason": "shortcutItem", "shortcutType": "com.example.add-book"}"#,
            options: LaunchOptions(reason: .shortcutItem, shortcutType: "com.example.add-book", isBackground: false)),
        // The background flag overrides the reason's default both ways.
        Parsed(
            json: #"{"reason": "remoteNotification", "background": false}"#,
            options: LaunchOptions(reason: .remoteNotification, isBackground: false)),
        Parsed(
            json: #"{"reason": "userTap", "background": true}"#,
            options: LaunchOptions(reason: .userTap, isBackground: true)),
        // No reason: a user tap.
        Parsed(json: "{}", options: .userTap),
    ]

    @Test(arguments: everyReason)
    func eachReasonIsParsedWithItsPayloadAndBackgroundFlag(_ parsed: Parsed) throws {
        let options = try LaunchOptions(json: parsed.json)
        #expect(options == parsed.options)
        // And the JSON written into traces reads back the same.
        #expect(try LaunchOptions(json: options.json) == options)
    }

    @Test func everyReasonIsCovered() {
        #expect(Set(Self.everyReason.map(\.options.reason)) == Set(LaunchOptions.Reason.allCases))
    }

    @Test func backgroundByDefaultOnlyForSystemLaunches() {
        let background = LaunchOptions.Reason.allCases.filter(\.isBackgroundByDefault)
        #expect(Set(background) == [.remoteNotification, .location, .backgroundFetch])
        #expect(!LaunchOptions.userTap.isBackground)
        #expect(LaunchOptions(reason: .location).isBackground)
    }

    @Test func theJSONFormIsSortedAndEscaped() {
        let options = LaunchOptions(
            reason: .url, url: "readinglist://search?q=\"winter\"", payload: ["b": "2", "a": "1"])
        #expect(
            options.json
                == #"{"background":false,"payload":{"a":"1","b":"2"},"reason":"url","url":"readinglist://search?q=\"winter\""}"#
        )
    }

    /// A bad options document, the key its error must name, and the offending value.
    struct BadOptions: Sendable, CustomStringConvertible {
        var json: String
        var key: String
        var value: String
        var description: String { json }
    }

    static let badOptions: [BadOptions] = [
        BadOptions(json: #"{"reason": "shake"}"#, key: "reason", value: "\"shake\""),
        BadOptions(json: #"{"reason": 3}"#, key: "reason", value: "3"),
        BadOptions(json: #"{"background": "yes"}"#, key: "background", value: "\"yes\""),
        BadOptions(json: #"{"reason": "url", "url": 42}"#, key: "url", value: "42"),
        BadOptions(json: #"{"reason": "url"}"#, key: "url", value: "missing"),
        BadOptions(json: #"{"activityType": ["a"]}"#, key: "activityType", value: "an array"),
        BadOptions(json: #"{"payload": "badge=3"}"#, key: "payload", value: "\"badge=3\""),
        BadOptions(json: #"{"payload": {"aps": {"badge": 3}}}"#, key: "payload.aps", value: "an object"),
        BadOptions(json: #"{"reson": "url"}"#, key: "reson", value: "\"url\""),
        BadOptions(json: "[]", key: "(top level)", value: "an array"),
    ]

    @Test(arguments: badOptions)
    func aBadValueIsRejectedNamingTheKey(_ bad: BadOptions) {
        do {
            let options = try LaunchOptions(json: bad.json)
            Issue.record("accepted: \(options)")
        } catch {
            guard case .badValue(let key, let value, let expected) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(key == bad.key)
            #expect(value == bad.value)
            #expect(!expected.isEmpty)
            #expect(error.description.contains("'\(bad.key)'"))
        }
    }

    @Test func anUnknownReasonListsTheKnownOnes() throws {
        let error = try #require(throws: LaunchOptionsError.self) { try LaunchOptions(json: #"{"reason": "shake"}"#) }
        for reason in LaunchOptions.Reason.allCases {
            #expect(error.description.contains(reason.rawValue))
        }
    }

    @Test func invalidJSONIsRejectedWithWhereItBroke() throws {
        let error = try #require(throws: LaunchOptionsError.self) { try LaunchOptions(json: #"{"reason": "url""#) }
        guard case .badValue(let key, _, let expected) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(key == "(json)")
        #expect(expected.contains("byte 16"))
    }

    // MARK: --launch-option pairs

    @Test func pairsBuildTheSameOptionsAsJSON() throws {
        let pairs = ["reason=url", "url=readinglist://book/42", "payload.kind=newBook", "background=true"]
        let options = try LaunchOptions(keyValuePairs: pairs)
        #expect(
            options
                == LaunchOptions(
                    reason: .url, url: "readinglist://book/42", payload: ["kind": "newBook"], isBackground: true))
        #expect(try LaunchOptions(json: options.json) == options)
    }

    @Test(
        "bad pairs are rejected naming the pair or key",
        arguments: [
            (["reason=teleport"], "teleport"),
            (["reason"], "KEY=VALUE"),
            (["=x"], "KEY=VALUE"),
            (["payload.=x"], "payload."),
            (["reason=url", "reason=url"], "twice"),
            (["background=yes"], "true or false"),
            (["colour=red"], "colour"),
            (["reason=url"], "url"),
            (["url=a\nb", "reason=teleport"], "teleport"),
        ])
    func badPairs(pairs: [String], mention: String) throws {
        let error = try #require(throws: LaunchOptionsError.self) { try LaunchOptions(keyValuePairs: pairs) }
        #expect(error.description.contains(mention), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    // MARK: Reports

    @Test func theReportFormHasTheLaunchOptionKeys() throws {
        let options = LaunchOptions(reason: .remoteNotification, payload: ["kind": "newBook"])
        let data = try JSONEncoder().encode(options)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["reason"] as? String == "remoteNotification")
        #expect(object["background"] as? Bool == true)
        #expect(object["payload"] as? [String: String] == ["kind": "newBook"])
        #expect(try JSONDecoder().decode(LaunchOptions.self, from: data) == options)
    }
}
