/// Credentials in a command line, masked before anything is written: launchprof
/// writes no credential it was given into a report, an export, a baseline, a
/// progress line or a file name (`--keep-command-line` keeps the words verbatim).
///
/// A value is masked as `***` when it follows a key that names a credential:
/// `--password=…`, `--token …` (the next word, unless it is an option), `API_KEY=…`,
/// `X-Api-Key: …`, `Authorization: …`, `Bearer …`/`Basic …`, the password of a URL
/// (`https://user:***@host`) and a URL's query values under such keys
/// (`?access_token=***`). A key names a credential when one of its parts — split
/// at `-`, `_`, `.` and lower-to-upper case changes — is `password`, `passwd`,
/// `passphrase`, `secret(s)`, `token(s)`, `credential(s)`, `auth`, `authorization`,
/// `cookie`, `apikey`, or `api` followed by `key` (also `private` followed by `key`),
/// unless its last part says the value is not the secret itself (`file`, `path`,
/// `dir`, `env`, `length`, `count`, `size`, `type`, `mode`: `--password-file PATH`).
/// So `--sort-key`, `--keyboard`, `--tokenizer`, `--passes` and paths with a
/// `token` folder are kept. `-pVALUE` is kept too (it is `-p8080` and `-pthread`
/// as often as a password). A word with spaces (`compare --base 'cmd args'`) is
/// masked word by word inside.
///
/// ```swift
/// CredentialMasking.masked(["app", "--password", "hunter2", "--sort-key=name"])
/// // ["app", "--password", "***", "--sort-key=name"]
/// ```
public enum CredentialMasking {
    /// What a masked value becomes.
    public static let mask = "***"

    /// `words` with every credential value masked.
    public static func masked(_ words: [String]) -> [String] {
        var result: [String] = []
        var maskNext = false
        for word in words {
            if maskNext, ["bearer", "basic"].contains(word.lowercased()) {
                result.append(word)  // `Authorization: Bearer TOKEN` in three words: the token is masked
                continue
            }
            if maskNext, !word.hasPrefix("-") || word == "-" {
                result.append(mask)
                maskNext = false
                continue
            }
            maskNext = false
            if word.contains(where: \.isWhitespace) {
                result.append(maskedInside(word))
                continue
            }
            let (masked, next) = maskedWord(word)
            result.append(masked)
            maskNext = next
        }
        return result
    }

    /// A word with spaces, masked word by word; the spaces kept.
    static func maskedInside(_ word: String) -> String {
        // Split into runs of spaces and of the rest, so the word is rebuilt as it was.
        var pieces: [(text: String, space: Bool)] = []
        for character in word {
            let space = character.isWhitespace
            if let last = pieces.last, last.space == space {
                pieces[pieces.count - 1].text.append(character)
            } else {
                pieces.append((String(character), space))
            }
        }
        // A header in one word: `Authorization: Bearer abc` → `Authorization: ***`.
        if let colon = word.firstIndex(of: ":"), !word[..<colon].contains(where: \.isWhitespace),
            isCredentialKey(String(word[..<colon])), word[word.index(after: colon)...].first?.isWhitespace == true
        {
            return String(word[...colon]) + " " + mask
        }
        let tokens = pieces.filter { !$0.space }.map(\.text)
        var replacements = Self.masked(tokens).makeIterator()
        return pieces.map { $0.space ? $0.text : replacements.next() ?? $0.text }.joined()
    }

    /// One word masked, and whether the next word is the value of the key it is.
    static func maskedWord(_ word: String) -> (String, maskNext: Bool) {
        let lowered = word.lowercased()
        if lowered == "bearer" || lowered == "basic" { return (word, true) }
        if word.hasPrefix("-") {
            let body = word.drop { $0 == "-" }
            if let equals = body.firstIndex(of: "=") {
                let key = String(body[..<equals])
                if isCredentialKey(key) { return (String(word[...equals]) + mask, false) }
                return (maskedURLInside(word), false)
            }
            // An option that takes the credential as the next word (never `-p`, see above).
            return (word, body.count > 1 && isCredentialKey(String(body)))
        }
        // `KEY=value` and `Key:value`/`Key:` (a header whose value is the next word).
        if let separator = word.firstIndex(where: { $0 == "=" || $0 == ":" }) {
            let key = String(word[..<separator])
            if isIdentifier(key), isCredentialKey(key) {
                let rest = word[word.index(after: separator)...]
                if rest.isEmpty { return (word, word[separator] == ":") }
                let scheme = rest.lowercased()
                return (String(word[...separator]) + mask, scheme == "bearer" || scheme == "basic")
            }
        }
        return (maskedURLInside(word), false)
    }

    /// `word` with a URL in it (from its scheme on) masked by ``maskedURL(_:)``.
    static func maskedURLInside(_ word: String) -> String {
        guard let separator = schemeSeparator(in: word) else { return word }
        var start = separator.lowerBound
        while start > word.startIndex {
            let before = word.index(before: start)
            guard word[before].isASCII, word[before].isLetter || word[before].isNumber || "+.-".contains(word[before])
            else { break }
            start = before
        }
        return String(word[..<start]) + maskedURL(String(word[start...]))
    }

    /// Where `://` is in `word`, if it is.
    static func schemeSeparator(in word: String) -> Range<String.Index>? {
        var index = word.startIndex
        while index < word.endIndex {
            if word[index...].hasPrefix("://") {
                return index..<word.index(index, offsetBy: 3)
            }
            index = word.index(after: index)
        }
        return nil
    }

    /// A URL with the password of its user and its query values under credential keys masked.
    static func maskedURL(_ word: String) -> String {
        guard let scheme = schemeSeparator(in: word) else { return word }
        var result = String(word[..<scheme.upperBound])
        var rest: Substring = word[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority: Substring = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            result += String(authority[...colon])
            result += mask
            result += String(authority[at...])
        } else {
            result += String(authority)
        }
        rest = rest[authorityEnd...]
        guard let query = rest.firstIndex(of: "?") else { return result + String(rest) }
        result += String(rest[...query])
        let fragment = rest.firstIndex(of: "#") ?? rest.endIndex
        let pairs = rest[rest.index(after: query)..<fragment].split(separator: "&", omittingEmptySubsequences: false)
        let masked: [String] = pairs.map { pair -> String in
            guard let equals = pair.firstIndex(of: "="), isCredentialKey(String(pair[..<equals])) else {
                return String(pair)
            }
            return String(pair[...equals]) + mask
        }
        result += masked.joined(separator: "&")
        return result + String(rest[fragment...])
    }

    /// True for a key that names a credential (see the type's rule).
    public static func isCredentialKey(_ key: String) -> Bool {
        let parts = keyParts(key)
        guard let last = parts.last, !notTheSecret.contains(last) else { return false }
        for (index, part) in parts.enumerated() {
            if credentialParts.contains(part) { return true }
            if part == "key", index > 0, ["api", "private", "access", "secret"].contains(parts[index - 1]) {
                return true
            }
        }
        return false
    }

    /// The lowercased parts of `key`: split at `-`, `_`, `.`, spaces and lower-to-upper case changes.
    static func keyParts(_ key: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var previousLower = false
        for character in key {
            if character == "-" || character == "_" || character == "." || character.isWhitespace {
                if !current.isEmpty { parts.append(current) }
                current = ""
                previousLower = false
                continue
            }
            if character.isUppercase, previousLower, !current.isEmpty {
                parts.append(current)
                current = ""
            }
            current += character.lowercased()
            previousLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// Letters, digits, `-`, `_` and `.`: a key, not a path or a sentence.
    static func isIdentifier(_ key: String) -> Bool {
        !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }

    /// Parts that make a key a credential's.
    static let credentialParts: Set<String> = [
        "password", "passwd", "passphrase", "secret", "secrets", "token", "tokens", "credential", "credentials",
        "auth", "authorization", "cookie", "apikey",
    ]
    /// Last parts that say the value is about the secret, not the secret.
    static let notTheSecret: Set<String> = ["file", "path", "dir", "env", "length", "count", "size", "type", "mode"]
}
