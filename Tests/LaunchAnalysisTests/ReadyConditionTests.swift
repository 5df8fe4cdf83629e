import Foundation
import LaunchAnalysis
import Testing

/// `--ready` values: every accepted form, and the mistakes people make.
@Suite("ReadyCondition")
struct ReadyConditionTests {
    @Test(
        "every accepted form parses and round-trips through description",
        arguments: [
            ("exit", ReadyCondition.exit),
            ("first-frame", .firstFrame),
            ("fully-drawn", .fullyDrawn),
            ("stdout:READY", .stdout(pattern: "READY")),
            ("stdout:listening on port [0-9]+", .stdout(pattern: "listening on port [0-9]+")),
            ("stdout:^(ready|listening)( on [a-z]+)?$", .stdout(pattern: "^(ready|listening)( on [a-z]+)?$")),
            ("stdout:\\bup\\b", .stdout(pattern: "\\bup\\b")),
            ("stdout:[]a]\\(", .stdout(pattern: "[]a]\\(")),
            ("stdout:a:b", .stdout(pattern: "a:b")),
            ("port:1", .port(1)),
            ("port:8080", .port(8080)),
            ("port:65535", .port(65535)),
            ("file:/tmp/ready", .file(path: "/tmp/ready")),
            ("file:relative/with:colon", .file(path: "relative/with:colon")),
        ])
    func accepted(text: String, expected: ReadyCondition) throws {
        let parsed = try ReadyCondition(parsing: text)
        #expect(parsed == expected)
        #expect(parsed.description == text)
        #expect(try ReadyCondition(parsing: parsed.description) == parsed)
    }

    @Test(
        "bad values throw a ParseError naming the text",
        arguments: [
            "sometimes", "port:0", "port:99999", "port:abc", "port:", "port:-1", "port:+80", "stdout:",
            "stdout:(", "file:", "", "Exit", "ports:80",
        ])
    func rejected(text: String) {
        #expect {
            try ReadyCondition(parsing: text)
        } throws: { error in
            guard let error = error as? ReadyCondition.ParseError else { return false }
            let named = error.text
            let problem = error.problem
            let message = "\(error)"
            return named == text && !problem.isEmpty && message.contains("'\(text)'") && !message.contains("\n")
        }
    }

    @Test(
        "a near miss of a keyword gets a suggestion",
        arguments: [
            ("firstframe", "first-frame"), ("First_Frame", "first-frame"), ("fullydrawn", "fully-drawn"),
            ("EXIT", "exit"),
        ])
    func suggestion(text: String, keyword: String) throws {
        let error = try #require(throws: ReadyCondition.ParseError.self) { try ReadyCondition(parsing: text) }
        #expect("\(error)".contains("did you mean '\(keyword)'?"))
    }

    @Test("an unrelated word gets the list of forms and no suggestion")
    func noSuggestion() throws {
        let error = try #require(throws: ReadyCondition.ParseError.self) { try ReadyCondition(parsing: "sometimes") }
        let message = "\(error)"
        #expect(!message.contains("did you mean"))
        for form in ReadyCondition.forms {
            #expect(message.contains(form))
        }
    }

    @Test("an invalid regular expression is reported as one")
    func invalidRegex() throws {
        let error = try #require(throws: ReadyCondition.ParseError.self) { try ReadyCondition(parsing: "stdout:(") }
        #expect("\(error)".contains("invalid regular expression"))
    }

    @Test(
        "stdout: takes POSIX extended regular expressions whose search cannot run away",
        arguments: [
            ("stdout:(a)\\1", "backreferences"),
            ("stdout:port \\d+", "write [0-9]"),
            ("stdout:a)", "unbalanced parenthesis"),
            ("stdout:(a{100}){100}", "more than 1000"),
            ("stdout:a{5000}", "more than 1000"),
            ("stdout:a{2,1}", "invalid regular expression"),
        ])
    func posixPatterns(text: String, problem: String) throws {
        let error = try #require(throws: ReadyCondition.ParseError.self) { try ReadyCondition(parsing: text) }
        #expect("\(error)".contains(problem), "\(error)")
    }
}

/// The object form a report holds, and the text a schema-1 report held.
@Suite("ReadyCondition in reports")
struct ReadyConditionCodingTests {
    @Test(
        "each condition round-trips through its object form",
        arguments: [
            ReadyCondition.exit, .firstFrame, .fullyDrawn, .stdout(pattern: "listening on [0-9]+"), .port(8080),
            .file(path: "/tmp/ready"),
        ])
    func roundTrip(condition: ReadyCondition) throws {
        let data = try JSONEncoder().encode(condition)
        #expect(try JSONDecoder().decode(ReadyCondition.self, from: data) == condition)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["kind"] is String)
    }

    @Test func portIsAnObjectWithANumber() throws {
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(ReadyCondition.port(8080))) as? [String: Any])
        #expect(object["kind"] as? String == "port")
        #expect(object["port"] as? Int == 8080)
    }

    @Test(
        "schema-1 text, including the labels of defaults, is read",
        arguments: [
            ("\"port:8080\"", ReadyCondition.port(8080)),
            ("\"first-frame (exit if uninstrumented)\"", .firstFrame),
            ("\"end of the hooks (background launch)\"", .firstFrame),
            ("\"exit\"", .exit),
        ])
    func legacy(json: String, expected: ReadyCondition) throws {
        #expect(try JSONDecoder().decode(ReadyCondition.self, from: Data(json.utf8)) == expected)
    }

    @Test func unknownKindIsRejected() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ReadyCondition.self, from: Data(#"{"kind": "sometimes"}"#.utf8))
        }
    }
}
