import LaunchAnalysis
import Testing

/// Issue 33, finding 2: a credential given on the command line (`--password=hunter2`)
/// was written verbatim into every report; ordinary arguments must stay as they are.
@Suite("Credential masking")
struct CredentialMaskingTests {
    /// Arguments that only look like credentials: none is masked.
    static let ordinary: [[String]] = [
        ["sort", "--sort-key", "name"], ["app", "--sort-key=name"], ["app", "--keyboard", "us"],
        ["app", "--tokenizer", "bpe"], ["app", "--tokenizer=bpe"], ["app", "--passes", "3"], ["app", "--passes=3"],
        ["app", "color=red", "KEY=value", "monkey=1", "keyring=x"], ["app", "/data/token/model.bin"],
        ["app", "--model=/srv/tokens/vocab.json"], ["app", "-p8080", "-pthread", "-p", "8080"],
        ["app", "--password-file", "/run/secrets/db"], ["app", "--token-length=32"], ["app", "--author", "ana"],
        ["curl", "https://example.com/a?page=2&sort=asc"], ["git", "clone", "https://github.com/a/b.git"],
        ["app", "--secret"], ["app", "--token", "--verbose"], ["sh", "-c", "exit 0"], ["app", "Bearer"],
    ]

    @Test(arguments: ordinary) func ordinaryArgumentsAreKept(_ words: [String]) {
        #expect(CredentialMasking.masked(words) == words)
    }

    /// Credential forms and what they become.
    static let credentials: [([String], [String])] = [
        (["app", "--password=hunter2"], ["app", "--password=***"]),
        (["app", "--password", "hunter2"], ["app", "--password", "***"]),
        (["app", "--token", "abc"], ["app", "--token", "***"]),
        (["app", "-token", "abc"], ["app", "-token", "***"]),
        (
            ["app", "--api-key=k1", "--apiKey", "k2", "--client-secret", "s"],
            ["app", "--api-key=***", "--apiKey", "***", "--client-secret", "***"]
        ),
        (["app", "--db-passwd=p", "--aws-credentials=c"], ["app", "--db-passwd=***", "--aws-credentials=***"]),
        (
            ["env", "GITHUB_TOKEN=ghp_x", "API_KEY=k", "db.password=p"],
            ["env", "GITHUB_TOKEN=***", "API_KEY=***", "db.password=***"]
        ),
        (["curl", "-H", "Authorization: Bearer abc"], ["curl", "-H", "Authorization: ***"]),
        (["curl", "-H", "X-Api-Key: abc"], ["curl", "-H", "X-Api-Key: ***"]),
        (["curl", "Authorization:", "Bearer", "abc"], ["curl", "Authorization:", "Bearer", "***"]),
        (["app", "Bearer", "abc"], ["app", "Bearer", "***"]),
        (["curl", "https://ana:hunter2@example.com/x"], ["curl", "https://ana:***@example.com/x"]),
        (["app", "--url=postgres://ana:pw@db:5432/app"], ["app", "--url=postgres://ana:***@db:5432/app"]),
        (["curl", "https://x.test/a?access_token=t&page=2"], ["curl", "https://x.test/a?access_token=***&page=2"]),
        (["/bin/sh -c 'exit 0' --password=hunter2"], ["/bin/sh -c 'exit 0' --password=***"]),
    ]

    @Test(arguments: credentials) func credentialsAreMasked(_ words: [String], _ expected: [String]) {
        #expect(CredentialMasking.masked(words) == expected)
        #expect(CredentialMasking.masked(expected) == expected, "masking twice changes nothing")
    }

    @Test func keysAreSplitIntoTheirParts() {
        #expect(CredentialMasking.isCredentialKey("accessToken"))
        #expect(CredentialMasking.isCredentialKey("PRIVATE_KEY"))
        #expect(!CredentialMasking.isCredentialKey("tokenizer"))
        #expect(!CredentialMasking.isCredentialKey("sort-key"))
        #expect(!CredentialMasking.isCredentialKey("keyboard"))
        #expect(!CredentialMasking.isCredentialKey("passes"))
    }
}
