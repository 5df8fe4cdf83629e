import LaunchAnalysis
import Testing

@Suite("command line text")
struct CommandLineTextTests {
    @Test func wordsAreQuotedAsAShellReadsThem() {
        #expect(CommandLineText.quoted(["python3", "-c", "import json"]) == "python3 -c 'import json'")
        #expect(CommandLineText.quoted(["echo", "it's", ""]) == #"echo 'it'\''s' ''"#)
        #expect(CommandLineText.quoted(["/usr/bin/env", "A=b", "x@y:1,2%+"]) == "/usr/bin/env A=b x@y:1,2%+")
    }

    @Test func headerValuesAreRedactedWhereverTheyAppear() {
        let words = [
            "launchprof", "measure", "--otlp-header", "authorization=Bearer SECRET", "--otlp-header=k=SECRET",
            "--", "env", "OTEL_EXPORTER_OTLP_HEADERS=a=SECRET", "OTEL_EXPORTER_OTLP_TRACES_HEADERS=SECRET",
            "app", "--otlp-header", "SECRET",
        ]
        let redacted = CommandLineText.redacted(words)
        #expect(
            redacted == [
                "launchprof", "measure", "--otlp-header", "authorization=<redacted>", "--otlp-header=k=<redacted>",
                "--", "env", "OTEL_EXPORTER_OTLP_HEADERS=<redacted>", "OTEL_EXPORTER_OTLP_TRACES_HEADERS=<redacted>",
                "app", "--otlp-header", "<redacted>",
            ])
        #expect(!CommandLineText.quoted(words).contains("SECRET"))
        // Redacting twice changes nothing.
        #expect(CommandLineText.redacted(redacted) == redacted)
    }
}
