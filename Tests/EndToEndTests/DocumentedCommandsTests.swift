import Foundation
import Testing
import _LaunchProfTestSupport

@testable import launchprof

/// Every `launchprof …` command line the README, the DocC articles and the measurement
/// logs show — in code blocks of any language (shell, YAML) and in inline code — names a
/// subcommand that exists and only options that subcommand's help lists. The
/// help is read from the same declarations `launchprof --help` prints (the
/// subcommands' `help` text, which the help goldens compare whole), not by
/// spawning. A command counts where `launchprof` (or a path ending in
/// `/launchprof`) is in command position: first on a line, after `VAR=value`
/// words, after `run:`, or after a shell operator (`|`, `&&`, `;`, `(`).
///
/// The cheap ones of the code blocks are also run, in a scratch folder, and must
/// exit 0 (inline code may hold placeholders: `launchprof report REPORT.json`). Cheap means
/// nothing is launched but `true` and nothing touches the network, so the suite
/// takes seconds:
/// - `--help`, `-h`, `help COMMAND`, `--version`, `version`;
/// - `report`, `trace` and `export` without `--otlp-endpoint`: each file argument the
///   documentation names (a relative path) is made in the scratch folder, at that path,
///   as a fixture (a `.json` a measurement report, a `.lptrace` a trace), and what
///   they write lands there too;
/// - `measure` whose program (after `--`) is `true` or `/bin/true` with `--runs` of
///   at most 5.
/// Everything else (launching real programs, comparisons, calibration, `merge`,
/// posting to a collector) is checked against the help only.
@Suite("Documented commands")
struct DocumentedCommandsTests {
    /// One command line found in a document.
    struct Command: CustomStringConvertible {
        var document: String
        var line: Int
        /// The words after `launchprof`, quotes removed, `[` and `]` of optional parts dropped.
        var words: [String]
        /// True in a fenced code block: a command to type. Inline code in prose may name
        /// a command with placeholders (`launchprof report REPORT.json`), so it is checked only.
        var isInCodeBlock = true

        var description: String { "\(document):\(line): launchprof \(words.joined(separator: " "))" }
    }

    /// README.md, `Reports/README.md`, `Benchmarks/RESULTS.md` and every article of every DocC
    /// catalog, relative to the package root.
    static let documents: [String] = {
        let root = BuiltProducts.packageRoot
        let sources = root.appendingPathComponent("Sources")
        var found = ["README.md", "Reports/README.md", "Benchmarks/RESULTS.md"]
        let modules = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        for module in modules.sorted() {
            let catalog = "Sources/\(module)/\(module).docc"
            let articles =
                (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(catalog).path)) ?? []
            found += articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        }
        return found
    }()

    /// Every command in every document.
    static let commands: [Command] = documents.flatMap { document in
        let text =
            (try? String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent(document), encoding: .utf8)) ?? ""
        return commands(in: text, document: document)
    }

    // MARK: Finding the commands

    /// The commands in `text`: in fenced code blocks line by line (a trailing `\`
    /// joins the next line), and in inline code spans of the prose.
    static func commands(in text: String, document: String) -> [Command] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [Command] = []
        var inFence = false
        var prose: [(line: Int, text: String)] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                index += 1
                continue
            }
            if inFence {
                var joined = line
                let start = index
                while joined.hasSuffix("\\"), index + 1 < lines.count {
                    joined = String(joined.dropLast()) + " " + lines[index + 1]
                    index += 1
                }
                found += commands(inShell: joined).map { Command(document: document, line: start + 1, words: $0) }
            } else {
                prose.append((index + 1, line))
            }
            index += 1
        }
        // Inline code may wrap across lines of one paragraph.
        let joined = prose.map(\.text).joined(separator: "\n")
        var lineOf: [Int] = []
        for (number, text) in prose { lineOf += Array(repeating: number, count: text.count + 1) }
        var offset = 0
        var spanStart: Int?
        var span = ""
        for character in joined {
            if character == "`" {
                if let start = spanStart {
                    found += commands(inShell: span.replacingOccurrences(of: "\n", with: " ")).map {
                        Command(
                            document: document, line: lineOf[min(start, lineOf.count - 1)], words: $0,
                            isInCodeBlock: false)
                    }
                    spanStart = nil
                } else {
                    spanStart = offset
                    span = ""
                }
            } else if spanStart != nil {
                span.append(character)
            }
            offset += 1
        }
        return found
    }

    /// The words of one shell line as a shell splits them (quotes removed), with
    /// shell operators as words of their own and a comment left out.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var characters = Array(line)[...]
        func finish() {
            if inWord { words.append(word) }
            (word, inWord) = ("", false)
        }
        while let character = characters.popFirst() {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
                continue
            }
            switch character {
            case "'", "\"":
                (quote, inWord) = (character, true)
            case "\\":
                if let next = characters.popFirst() { word.append(next) }
                inWord = true
            case " ", "\t":
                finish()
            case "#" where !inWord:
                finish()
                return words
            case "|", "&", ";", "(", ")", "<", ">":
                finish()
                words.append(String(character))
            default:
                word.append(character)
                inWord = true
            }
        }
        finish()
        return words
    }

    /// The argument lists of the `launchprof` commands on one shell line.
    static func commands(inShell line: String) -> [[String]] {
        var words = shellWords(line)
        if words.first == "-" { words.removeFirst() }  // a YAML list item: `- run: …`
        if words.first == "run:" { words.removeFirst() }
        let operators: Set<String> = ["|", "&", ";", "(", ")", "<", ">"]
        var found: [[String]] = []
        var commandPosition = true
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if operators.contains(word) {
                commandPosition = true
                continue
            }
            guard commandPosition else { continue }
            if word.contains("="), !word.hasPrefix("-") { continue }  // VAR=value before a command
            commandPosition = false
            guard word == "launchprof" || word.hasSuffix("/launchprof") else { continue }
            var arguments: [String] = []
            while index < words.count, !operators.contains(words[index]) {
                let argument = words[index].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
                if !argument.isEmpty { arguments.append(argument) }
                index += 1
            }
            if !arguments.isEmpty { found.append(arguments) }
        }
        return found
    }

    // MARK: What the help lists

    /// The options `help` lists, from the first words of its option table's lines,
    /// each with whether it takes a value (a second word such as `N` or `FILE`).
    static func options(inHelp help: String) -> [String: Bool] {
        var options: [String: Bool] = [:]
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            let words = line.dropFirst(2).split(separator: " ", omittingEmptySubsequences: true)
            var names: [String] = []
            var takesValue = false
            for word in words.prefix(3) {
                if word.hasPrefix("-") {
                    names.append(word.trimmingCharacters(in: CharacterSet(charactersIn: ",")))
                } else {
                    takesValue = word.allSatisfy { $0.isUppercase || "=_.[]".contains($0) }
                    break
                }
            }
            for name in names { options[name] = takesValue }
        }
        return options
    }

    /// Each subcommand's options, read from its declared help.
    static let optionsByCommand: [String: [String: Bool]] = Dictionary(
        uniqueKeysWithValues: LaunchProf.subcommands.map { ($0.name, options(inHelp: $0.help)) })

    /// What is wrong with `command`, or nil when the help lists its subcommand and every option.
    static func problem(with command: Command) -> String? {
        let words = command.words
        let first = words[0]
        if ["--help", "-h", "--version", "version"].contains(first) { return nil }
        if first == "help" {
            let named = words.dropFirst().first
            return named == nil || named == "version" || optionsByCommand[named!] != nil
                ? nil : "no command '\(named!)' to show help for"
        }
        guard let known = optionsByCommand[first] else { return "no command '\(first)'" }
        var isValue = false
        for word in words.dropFirst().prefix(while: { $0 != "--" }) {
            defer { isValue = !isValue && known[word] == true }
            guard !isValue, word.hasPrefix("-") else { continue }
            let name = String(word.prefix { $0 != "=" })
            if known[name] == nil { return "'\(first)' has no option \(name)" }
        }
        return nil
    }

    @Test func theDocumentsShowCommands() {
        // The finder works: the README's own first command and an article's are found.
        #expect(Self.commands.contains { $0.document == "README.md" && $0.words == ["measure"] })
        #expect(Self.commands.contains { $0.document.hasSuffix("CIJobs.md") && $0.words.first == "compare" })
        #expect(Self.documents.count > 10, "\(Self.documents)")
    }

    @Test func everyDocumentedCommandIsOneTheHelpLists() {
        #expect(
            Self.optionsByCommand["measure"]?["--runs"] == true && Self.optionsByCommand["measure"]?["--quiet"] == false
        )
        let problems = Self.commands.compactMap { command in Self.problem(with: command).map { "\(command): \($0)" } }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func theFinderReadsShellAsAShellDoes() {
        #expect(
            Self.commands(inShell: #"OTEL_SERVICE_NAME=x launchprof measure --ready 'stdout:^listening' -- app # note"#)
                == [["measure", "--ready", "stdout:^listening", "--", "app"]])
        #expect(
            Self.commands(inShell: "launchprof-bin/launchprof compare --base a --quiet || code=$?")
                == [["compare", "--base", "a", "--quiet"]])
        #expect(Self.commands(inShell: "cp .launchprof-src/.build/release/launchprof launchprof-bin/").isEmpty)
        #expect(
            Self.commands(inShell: "run: launchprof-bin/launchprof calibrate --rounds 5") == [
                ["calibrate", "--rounds", "5"]
            ])
        #expect(
            Self.commands(inShell: "launchprof report R.json [--format LIST]") == [
                ["report", "R.json", "--format", "LIST"]
            ])
        let text =
            "Run `launchprof compare\n--base-sample naive` and\n```sh\nlaunchprof trace a.lptrace \\\n  --format json\n```\n"
        #expect(
            Self.commands(in: text, document: "x").map(\.words) == [
                ["trace", "a.lptrace", "--format", "json"], ["compare", "--base-sample", "naive"],
            ])
        #expect(Self.problem(with: Command(document: "x", line: 1, words: ["measure", "--run", "3"])) != nil)
        #expect(Self.problem(with: Command(document: "x", line: 1, words: ["measure", "--", "app", "--run"])) == nil)
        #expect(
            Self.problem(with: Command(document: "x", line: 1, words: ["measure", "--output", "-", "--quiet"])) == nil)
    }

    // MARK: Running the cheap ones

    /// The command as it is run in `scratch`, or nil when it is not cheap: its input
    /// files made there from fixtures.
    static func cheapRun(_ command: Command, in scratch: ScratchDirectory) throws -> [String]? {
        let words = command.words
        guard command.isInCodeBlock else { return nil }
        switch words[0] {
        case "--help", "-h", "--version", "version", "help":
            return words
        case "report", "trace", "export":
            if words.contains("--otlp-endpoint") { return nil }
            let known = optionsByCommand[words[0]] ?? [:]
            var isValue = false
            for word in words.dropFirst() {
                defer { isValue = known[word] == true }
                guard !isValue, !word.hasPrefix("-") else { continue }
                let fixture: String
                if word.hasSuffix(".lptrace") {
                    fixture = "Tests/LaunchTracingTests/Goldens/fixed-recording.lptrace"
                } else if word.hasSuffix(".json") {
                    fixture = "Tests/LaunchReportsTests/Fixtures/measurement-v2-sample.json"
                } else {
                    continue
                }
                if word.hasPrefix("/") || word.hasPrefix("~") { return nil }  // only inside the scratch folder
                let target = scratch.url.appendingPathComponent(word)
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                if !FileManager.default.fileExists(atPath: target.path) {
                    try FileManager.default.copyItem(
                        at: BuiltProducts.packageRoot.appendingPathComponent(fixture), to: target)
                }
            }
            return words
        case "measure":
            guard let dashes = words.firstIndex(of: "--"), ["true", "/bin/true"].contains(words[dashes + 1]) else {
                return nil
            }
            if let runs = words.firstIndex(of: "--runs"), (Int(words[runs + 1]) ?? 0) > 5 { return nil }
            return words
        default:
            return nil
        }
    }

    @Test func theCheapCommandsRun() throws {
        var ran = 0
        for command in Self.commands {
            let scratch = ScratchDirectory("lp-documented")
            guard let arguments = try Self.cheapRun(command, in: scratch) else { continue }
            let result = try Executables.run(arguments, in: scratch.url, timeoutSeconds: 120)
            #expect(result.status == 0 && !result.timedOut, "\(command): exit \(result.status)\n\(result.stderr)")
            ran += 1
        }
        // At least the README's trace, report, export and measure examples ran.
        #expect(ran >= 5, "only \(ran) documented commands were cheap enough to run")
    }
}
