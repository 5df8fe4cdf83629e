import Foundation
import LaunchMeasure
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// The README's GitHub Actions job, run here: its YAML is taken from the README
/// and every `run:` step that needs no hosted runner (no `${{ … }}` expression,
/// no build, no git, no `gh`) runs in order under `bash -e`, as a runner runs
/// it, with `GITHUB_ACTIONS=true` and `$GITHUB_STEP_SUMMARY` and
/// `$GITHUB_OUTPUT` in temporary files; the two builds are stand-ins.
@Suite("CI recipe")
struct CIRecipeTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../README.md")

    /// One step of a job: its name and its `run:` script.
    struct Step: Equatable {
        var name: String
        var run: String
    }

    /// The first ```yaml block after `heading` in `text`.
    static func yaml(after heading: String, in text: String) throws -> String {
        let section = try #require(text.range(of: heading)).upperBound
        let start = try #require(text.range(of: "```yaml\n", range: section..<text.endIndex)).upperBound
        let end = try #require(text.range(of: "\n```", range: start..<text.endIndex)).lowerBound
        return String(text[start..<end])
    }

    /// The steps with a `run:` key (a `|` block or one line), in order.
    static func runSteps(_ yaml: String) -> [Step] {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
        var steps: [Step] = []
        var name = ""
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("- ") { name = "" }
            let key = trimmed.hasPrefix("- ") ? String(trimmed.dropFirst(2)) : trimmed
            if key.hasPrefix("name: ") { name = String(key.dropFirst(6)) }
            if key.hasPrefix("run: |") {
                let keyIndent = indent(line)
                var script: [String] = []
                index += 1
                while index < lines.count,
                    lines[index].trimmingCharacters(in: .whitespaces).isEmpty || indent(lines[index]) > keyIndent
                {
                    script.append(String(lines[index].dropFirst(min(indent(lines[index]), keyIndent + 2))))
                    index += 1
                }
                steps.append(Step(name: name, run: script.joined(separator: "\n")))
                continue
            } else if key.hasPrefix("run: ") {
                steps.append(Step(name: name, run: String(key.dropFirst(5))))
            }
            index += 1
        }
        return steps
    }

    /// True for a step that needs a hosted runner: an expression, a build, git, gh, or installing a package.
    static func needsRunner(_ step: Step) -> Bool {
        ["${{", "swift build", "git ", "gh ", "apt-get"].contains { step.run.contains($0) }
    }

    @Test func theJobsLocalStepsRunWithGitHubActionsSet() throws {
        let yaml = try Self.yaml(
            after: "### In CI: GitHub Actions", in: String(contentsOf: Self.readme, encoding: .utf8))
        #expect(
            yaml.contains("on: pull_request") && yaml.contains("actions/cache@")
                && yaml.contains("actions/upload-artifact@"))
        #expect(yaml.contains("setup-swift") && yaml.contains("gh pr comment") && yaml.contains("GITHUB_STEP_SUMMARY"))
        let steps = Self.runSteps(yaml)
        let local = steps.filter { !Self.needsRunner($0) }
        #expect(
            local.map(\.name) == ["Compare instructions", "Compare launch time", "Job summary"], "\(steps.map(\.name))")

        // The checkout: launchprof from the cache, the base's and the head's builds (a program ready at its exit).
        let scratch = ScratchDirectory("lp-ci")
        let work = scratch.url.appendingPathComponent("work")
        for folder in ["work/launchprof-bin", "work/.build/release", "base/.build/release"] {
            try FileManager.default.createDirectory(
                at: scratch.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(
            atPath: work.appendingPathComponent("launchprof-bin/launchprof").path,
            withDestinationPath: BuiltProducts.launchprof)
        for side in ["work", "base"] {
            _ = try scratch.write("#!/bin/sh\nexit 0\n", to: "\(side)/.build/release/MyApp", permissions: 0o755)
        }
        let summary = scratch.file("step-summary.md")
        let output = scratch.file("github-output")
        for file in [summary, output] { FileManager.default.createFile(atPath: file, contents: nil) }
        let environment = ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary, "GITHUB_OUTPUT": output]

        // The instruction step needs valgrind, which .ci/run installs.
        let counting = (try? InstructionCounter.locate()) != nil
        for step in local where counting || step.name != "Compare instructions" {
            let result = try Executables.run(
                ["-e", "-c", step.run], executable: "/bin/bash", environment: environment, in: work)
            // Base and head are the same program: a pass, or inconclusive, which this recipe lets pass (exit 0 either way).
            #expect(result.status == 0, "\(step.name): \(result.stdout)\n\(result.stderr)")
            if step.name == "Compare instructions" {
                let document = try JSONReport.readDocument(
                    from: work.appendingPathComponent("Reports/launch-instructions.comparison.json").path)
                guard case .comparison(let report) = document else {
                    Issue.record("not a comparison")
                    return
                }
                #expect(report.instructions != nil, "the instruction comparison is missing")
                #expect([0, 3].contains(report.outcome.exitCode))
            }
            if step.name == "Compare launch time" {
                let document = try JSONReport.readDocument(
                    from: work.appendingPathComponent("Reports/compare-myapp-vs-myapp.comparison.json").path)
                guard case .comparison(let report) = document else {
                    Issue.record("not a comparison")
                    return
                }
                #expect([0, 3].contains(report.outcome.exitCode))
                #expect(
                    result.stdout.contains("::warning::launch time inconclusive") == (report.outcome.exitCode == 3),
                    "\(result.stdout)")
                // With GITHUB_ACTIONS=true the verdict is a workflow command too.
                #expect(result.stdout.contains("::notice") || result.stdout.contains("::warning"), "\(result.stdout)")
            }
        }
        // The summary has the comparison's Markdown; the artifact's paths exist.
        let markdown = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(markdown.contains("compare-myapp-vs-myapp") || markdown.contains("MyApp"), "\(markdown.prefix(300))")
        let reports =
            (try? FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("Reports").path)) ?? []
        #expect(reports.contains { $0.hasSuffix(".html") } && reports.contains { $0.hasSuffix(".runs") }, "\(reports)")
    }

    @Test func theStepsAreReadAsARunnerReadsThem() {
        let yaml = """
            steps:
              - uses: actions/checkout@v4
              - name: One
                run: echo one
              - name: Two
                if: always()
                run: |
                  a=1
                    indented
                  echo "$a"
              - name: Three
                run: gh pr comment 1
            """
        let steps = Self.runSteps(yaml)
        #expect(
            steps == [
                Step(name: "One", run: "echo one"), Step(name: "Two", run: "a=1\n  indented\necho \"$a\""),
                Step(name: "Three", run: "gh pr comment 1"),
            ])
        #expect(steps.map(Self.needsRunner) == [false, false, true])
    }
}
