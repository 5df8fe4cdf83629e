import LaunchAnalysis
import LaunchReports
import Testing

@Suite("workflow commands")
struct WorkflowCommandsTests {
    func neutralized(_ text: String, _ syntax: WorkflowCommands.Syntax) -> String {
        WorkflowCommands.neutralized(text, as: syntax)
    }

    @Test func aLineStartingWithTwoColonsAfterWhitespaceIsBroken() {
        #expect(neutralized("a\n  ::error::x", .text) == "a\n  :\u{200B}:error::x")
        #expect(neutralized("a\r\t::error::x", .markup) == "a\r\t&#58;:error::x")
        #expect(neutralized("::x", .markdown) == "\\::x")
        #expect(neutralized("a ::x", .text) == "a ::x", "only at a line's start")
        #expect(
            neutralized("\u{3000}::x", .text) == "\u{3000}:\u{200B}:x",
            "Unicode whitespace is stripped by the runner too")
    }

    @Test func theLegacyFormIsBrokenAnywhere() {
        #expect(neutralized("x ##[error]y", .text) == "x #\u{200B}#[error]y")
        #expect(neutralized("\"x ##[error]y\"", .json) == "\"x \\u0023#[error]y\"")
        #expect(neutralized("x ##[e", .markup) == "x &#35;#[e")
        #expect(neutralized("x ##[e", .markdown) == "x #\\#[e")
        #expect(neutralized("# heading ## [x]", .markdown) == "# heading ## [x]")
    }

    @Test func htmlWritesControlCharactersAsReferences() throws {
        let report = try SampleReports.uninstrumented([10, 11])
        var document = report
        document.configuration.command = ["/bin/x\n::set-output name=evil::1\r\u{1B}[31m\u{07}\u{0}"]
        let html = String(decoding: try ReportFormat.html.render(.measurement(document)), as: UTF8.self)
        #expect(html.contains("/bin/x&#xA;::set-output name=evil::1&#xD;&#x1B;[31m&#x7;&#x0;"))
        for raw in ["\r", "\u{1B}", "\u{07}", "\u{0}"] { #expect(!html.contains(raw)) }
    }

    /// A right-to-left override written as a reference is still applied by the browser,
    /// and a C1 code as a reference shows as a Windows-1252 character: both are written
    /// visibly, as the terminal writes them.
    @Test func htmlWritesOverridesAndC1CodesVisibly() throws {
        var document = try SampleReports.uninstrumented([10, 11])
        document.configuration.command = ["/bin/Load\u{202E}gnp.exe\u{9B}31m"]
        let html = String(decoding: try ReportFormat.html.render(.measurement(document)), as: UTF8.self)
        #expect(html.contains("Load\\u{202E}gnp.exe\\u{9B}31m"))
        #expect(!html.contains("&#x202E;") && !html.contains("\u{202E}") && !html.contains("&#x9B;"))
    }

    @Test func tokensDiffer() {
        let a = WorkflowCommands.randomToken()
        let b = WorkflowCommands.randomToken()
        #expect(a.count == 32 && b.count == 32 && a != b)
    }
}
