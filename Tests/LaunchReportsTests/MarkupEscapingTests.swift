import LaunchAnalysis
import LaunchReports
import Testing

/// One escaper for HTML and JUnit's XML: the same five characters escaped in
/// both, and each markup's own rules for control characters.
@Suite("Markup escaping")
struct MarkupEscapingTests {
    func pages(command: String) throws -> (html: String, junit: String) {
        var report = try SampleReports.uninstrumented([10, 11])
        report.configuration.command = [command]
        return (HTMLReport.render(.measurement(report)), JUnitReport.render(.measurement(report)))
    }

    @Test func htmlAndJUnitEscapeTheSameMarkupCharactersEachByItsOwnRules() throws {
        // The command is shown quoted as a shell would: '…'.
        let (html, junit) = try pages(command: "a<b>&\"c\"\u{01}\t\nline\r\u{1B}[31m\u{202E}gnp\u{9B}\u{FFFE}")
        // HTML: references for the ASCII controls, visible escapes for an override and a C1 code.
        #expect(
            html.contains(
                "&#39;a&lt;b&gt;&amp;&quot;c&quot;&#x1;&#x9;&#xA;line&#xD;&#x1B;[31m\\u{202E}gnp\\u{9B}\u{FFFE}&#39;"),
            "\(html)")
        // XML 1.0 in an attribute: tab, line feed and carriage return as references, the
        // controls XML cannot hold as U+FFFD, an override kept (XML can hold it).
        #expect(
            junit.contains(
                "value=\"&apos;a&lt;b&gt;&amp;&quot;c&quot;\u{FFFD}&#x9;&#xA;line&#xD;\u{FFFD}[31m\u{202E}gnp\u{9B}\u{FFFD}&apos;\""
            ),
            "\(junit)")
    }

    @Test func anApostropheIsAReferenceInBoth() throws {
        let (html, junit) = try pages(command: "it's")
        #expect(html.contains("<code>&#39;it&#39;\\&#39;&#39;s&#39;</code>"), "\(html)")
        #expect(junit.contains("value=\"&apos;it&apos;\\&apos;&apos;s&apos;\""), "\(junit)")
    }
}
