/// Splits a command given as one string (`--base './app --fast'`) into words
/// as a POSIX shell would, without running a shell: spaces separate words;
/// single quotes keep everything literally; double quotes keep spaces and take
/// `\"`, `\\`, `\$` and `` \` `` as escapes; a backslash outside quotes escapes
/// the next character. No expansion of variables, globs or `~`.
enum ShellWords {
    /// The words of `text`, or a usage error naming what is unbalanced.
    static func split(_ text: String, option: String) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord {
                    words.append(word)
                    word = ""
                    inWord = false
                }
            case "'":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "'" {
                        closed = true
                        break
                    }
                    word.append(next)
                }
                guard closed else { throw UsageError("\(option) has an unclosed single quote: \(text)") }
            case "\"":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { break }
                        if !"\"\\$`".contains(escaped) { word.append("\\") }
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
                guard closed else { throw UsageError("\(option) has an unclosed double quote: \(text)") }
            case "\\":
                inWord = true
                guard let escaped = iterator.next() else {
                    throw UsageError("\(option) ends with a lone backslash: \(text)")
                }
                word.append(escaped)
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        guard !words.isEmpty else { throw UsageError("\(option) needs a command, not '\(text)'") }
        return words
    }
}
