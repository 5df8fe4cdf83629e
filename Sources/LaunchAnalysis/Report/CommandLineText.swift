/// The one way a command line is written down: secrets redacted, words quoted as
/// a POSIX shell reads them. Every place that records or prints a command line
/// (the report's `configuration.commandLine`, every format's command, the
/// terminal) goes through it.
///
/// The values of request headers for a trace collector are secrets (an
/// `authorization` token): the word after `--otlp-header` (or after
/// `--otlp-header=`) keeps its header name and loses its value, and so does
/// an `OTEL_EXPORTER_OTLP_HEADERS=…` or `OTEL_EXPORTER_OTLP_TRACES_HEADERS=…`
/// assignment (as `env` takes it), wherever they appear.
///
/// ```swift
/// CommandLineText.quoted(["launchprof", "--otlp-header", "authorization=Bearer x", "--", "python3", "-c", "import json"])
/// // "launchprof --otlp-header 'authorization=<redacted>' -- python3 -c 'import json'"
/// ```
public enum CommandLineText {
    /// What a redacted value is replaced with.
    public static let redactedValue = "<redacted>"

    /// The options whose value is a request header `NAME=VALUE`.
    static let headerOptions: Set<String> = ["--otlp-header"]
    /// The environment variables whose value is a list of headers.
    static let headerVariables = ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"]

    /// `words` with every header value replaced by ``redactedValue``.
    public static func redacted(_ words: [String]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(words.count)
        var headerFollows = false
        for word in words {
            defer { headerFollows = headerOptions.contains(word) }
            if headerFollows {
                result.append(redactedHeader(word))
            } else if let equals = word.firstIndex(of: "="), headerOptions.contains(String(word[..<equals])) {
                result.append(word[...equals] + redactedHeader(String(word[word.index(after: equals)...])))
            } else if let variable = headerVariables.first(where: { word.hasPrefix($0 + "=") }) {
                result.append(variable + "=" + redactedValue)
            } else {
                result.append(word)
            }
        }
        return result
    }

    /// `NAME=<redacted>` for a header `NAME=VALUE` (all of it redacted when it has no `=`).
    static func redactedHeader(_ header: String) -> String {
        guard let equals = header.firstIndex(of: "=") else { return redactedValue }
        return header[...equals] + redactedValue
    }

    /// `words` redacted and joined with spaces, each word that a shell would not
    /// read as itself in single quotes (a `'` inside written `'\''`): words made
    /// only of letters, digits and `-_./=:,@%+` are left bare.
    public static func quoted(_ words: [String]) -> String {
        redacted(words).map(quotedWord).joined(separator: " ")
    }

    /// One word as a shell reads it.
    public static func quotedWord(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "-_./=:,@%+".unicodeScalars.contains($0)
            }
        return plain ? word : "'" + word.map { $0 == "'" ? #"'\''"# : String($0) }.joined() + "'"
    }
}
