import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchReports
import Testing
import _LaunchProfTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The GitHub Actions jobs of the LaunchFrontend catalog's "CI Jobs" article, run
/// here: each job's YAML is taken from the article and every `run:` step that needs
/// no hosted runner (no `${{ … }}` expression, no build, no git, no `gh`, no
/// package installed) runs in order under `bash -e`, as a runner runs it, with
/// `GITHUB_ACTIONS=true` and `$GITHUB_STEP_SUMMARY` and `$GITHUB_OUTPUT` in
/// temporary files; the builds are stand-ins (an app that exits at once, a server
/// that listens on `--port`), so nothing here is slow.
@Suite("CI recipe")
struct CIRecipeTests {
    static let article = BuiltProducts.packageRoot.appendingPathComponent(
        "Sources/LaunchFrontend/LaunchFrontend.docc/CIJobs.md")

    /// One step of a job: its name, its `uses:` action, its `if:` condition and its `run:` script.
    struct Step: Equatable {
        var name: String
        var uses: String? = nil
        var condition: String? = nil
        var run: String? = nil
    }

    /// The first ```yaml block after `heading` in `text`.
    static func yaml(after heading: String, in text: String) throws -> String {
        let section = try #require(text.range(of: heading)).upperBound
        let start = try #require(text.range(of: "```yaml\n", range: section..<text.endIndex)).upperBound
        let end = try #require(text.range(of: "\n```", range: start..<text.endIndex)).lowerBound
        return String(text[start..<end])
    }

    /// The job `heading` names in the article.
    static func job(_ heading: String) throws -> String {
        try yaml(after: heading, in: String(contentsOf: article, encoding: .utf8))
    }

    /// Every step of `yaml`, in order: a step starts at a `- ` item under `steps:`.
    static func steps(_ yaml: String) -> [Step] {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
        var steps: [Step] = []
        var stepIndent: Int?
        var inSteps = false
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            index += 1
            if trimmed == "steps:" {
                (inSteps, stepIndent) = (true, nil)
                continue
            }
            guard inSteps else { continue }
            if trimmed.hasPrefix("- "), stepIndent == nil || indent(line) == stepIndent {
                stepIndent = indent(line)
                steps.append(Step(name: ""))
            }
            guard !steps.isEmpty else { continue }
            let key = trimmed.hasPrefix("- ") ? String(trimmed.dropFirst(2)) : trimmed
            if key.hasPrefix("name: ") && steps[steps.count - 1].name.isEmpty {
                steps[steps.count - 1].name = String(key.dropFirst(6))
            } else if key.hasPrefix("uses: ") {
                steps[steps.count - 1].uses = String(key.dropFirst(6))
            } else if key.hasPrefix("if: ") {
                steps[steps.count - 1].condition = String(key.dropFirst(4))
            } else if key.hasPrefix("run: |") {
                let keyIndent = indent(line)
                var script: [String] = []
                while index < lines.count,
                    lines[index].trimmingCharacters(in: .whitespaces).isEmpty || indent(lines[index]) > keyIndent
                {
                    script.append(String(lines[index].dropFirst(min(indent(lines[index]), keyIndent + 2))))
                    index += 1
                }
                steps[steps.count - 1].run = script.joined(separator: "\n")
            } else if key.hasPrefix("run: ") {
                steps[steps.count - 1].run = String(key.dropFirst(5))
            }
        }
        return steps
    }

    /// True for a run step that needs a hosted runner: an expression, a build, git, gh, or installing a package.
    static func needsRunner(_ step: Step) -> Bool {
        ["${{", "swift build", "git ", "gh ", "apt-get"].contains { (step.run ?? "").contains($0) }
    }

    /// The lines of the `path: |` list of the job's `actions/upload-artifact` step (its first one).
    static func artifactPaths(_ yaml: String) throws -> [String] {
        let upload = try #require(yaml.range(of: "uses: actions/upload-artifact@"))
        let rest = yaml[upload.upperBound...]
        let list = try #require(rest.range(of: "path: |\n")).upperBound
        return rest[list...].split(separator: "\n").prefix { $0.hasPrefix("            ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A TCP port nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        try #require(bound)
        return UInt16(bigEndian: address.sin_port)
    }

    /// A checkout as the jobs leave it: launchprof restored from the cache into
    /// `launchprof-bin/`, and `product` built for the head (`.build/release/`) and the
    /// base (`.base/.build/release/`) as `script`.
    static func checkout(_ scratch: ScratchDirectory, product: String, script: String) throws -> URL {
        let work = scratch.url.appendingPathComponent("work")
        for folder in ["work/launchprof-bin", "work/.build/release", "work/.base/.build/release"] {
            try FileManager.default.createDirectory(
                at: scratch.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(
            atPath: work.appendingPathComponent("launchprof-bin/launchprof").path,
            withDestinationPath: BuiltProducts.launchprof)
        for side in ["work", "work/.base"] {
            _ = try scratch.write(script, to: "\(side)/.build/release/\(product)", permissions: 0o755)
        }
        return work
    }

    /// The runner's files for the step summary and outputs, empty, and the variables that name them.
    static func runnerEnvironment(_ scratch: ScratchDirectory) -> [String: String] {
        let summary = scratch.file("step-summary.md")
        let output = scratch.file("github-output")
        for file in [summary, output] { FileManager.default.createFile(atPath: file, contents: nil) }
        return ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary, "GITHUB_OUTPUT": output]
    }

    /// The comparison `Reports/NAME.comparison.json` in `work`.
    static func comparison(_ name: String, in work: URL) throws -> ComparisonReport? {
        let document = try JSONReport.readDocument(
            from: work.appendingPathComponent("Reports/\(name).comparison.json").path)
        guard case .comparison(let report) = document else {
            Issue.record("Reports/\(name).comparison.json is not a comparison")
            return nil
        }
        return report
    }

    /// What every pull-request job must hold: each step after the first comparison
    /// runs after a failed one (`always()`), and the artifact takes report files only.
    static func expectRunsAfterFailuresAndUploadsReportsOnly(_ yaml: String) throws {
        let all = steps(yaml)
        let first = try #require(all.firstIndex { $0.name.hasPrefix("Compare") })
        for step in all[(first + 1)...] {
            #expect(step.condition?.contains("always()") == true, "step '\(step.name)' is skipped after a failure")
        }
        let paths = try artifactPaths(yaml)
        #expect(!paths.isEmpty)
        for path in paths {
            #expect(!path.contains(".runs") && path.hasPrefix("Reports/*."), "\(path): report files only")
        }
    }

    /// Every job builds the launchprof it runs: a cached `launchprof-bin`, and a
    /// build of it when the cache missed.
    static func expectBuildsTheLaunchprofItRuns(_ yaml: String) throws {
        let all = steps(yaml)
        let uses = try #require(all.firstIndex { ($0.run ?? "").contains("launchprof-bin/launchprof ") })
        let cache = try #require(all.firstIndex { $0.uses?.hasPrefix("actions/cache@") == true })
        let build = try #require(all.firstIndex { ($0.run ?? "").contains("--product launchprof") })
        #expect(cache < build && build < uses)
        #expect(all[build].run?.contains("cp .launchprof-src/.build/release/launchprof launchprof-bin/") == true)
        #expect(all[build].condition == "steps.launchprof-cache.outputs.cache-hit != 'true'")
        #expect(yaml.contains("path: launchprof-bin"))
    }

    @Test func theAppJobsLocalStepsRunWithGitHubActionsSet() throws {
        let yaml = try Self.job("### An app")
        #expect(yaml.contains("on: pull_request") && yaml.contains("setup-swift"))
        #expect(yaml.contains("hashFiles('Package.resolved'") && yaml.contains(".base/.build"))
        #expect(yaml.contains("issues/comments/$id") && yaml.contains("--method PATCH") && yaml.contains("MARKER"))
        try Self.expectRunsAfterFailuresAndUploadsReportsOnly(yaml)
        try Self.expectBuildsTheLaunchprofItRuns(yaml)
        let local = Self.steps(yaml).filter { $0.run != nil && !Self.needsRunner($0) }
        #expect(local.map(\.name) == ["Compare instructions", "Compare launch time", "Job summary"])

        let scratch = ScratchDirectory("lp-ci")
        let work = try Self.checkout(scratch, product: "MyApp", script: "#!/bin/sh\nexit 0\n")
        let environment = Self.runnerEnvironment(scratch)
        // The instruction step needs valgrind, which .ci/run installs.
        let counting = (try? InstructionCounter.locate()) != nil
        for step in local where counting || step.name != "Compare instructions" {
            let result = try Executables.run(
                ["-e", "-c", step.run ?? ""], executable: "/bin/bash", environment: environment, in: work)
            // Base and head are the same program: a pass, or inconclusive, which this recipe lets pass (exit 0 either way).
            #expect(result.status == 0, "\(step.name): \(result.stdout)\n\(result.stderr)")
            if step.name == "Compare instructions", let report = try Self.comparison("launch-instructions", in: work) {
                #expect(report.instructions != nil, "the instruction comparison is missing")
                #expect([0, 3].contains(report.outcome.exitCode.rawValue))
            }
            if step.name == "Compare launch time", let report = try Self.comparison("launch-time", in: work) {
                #expect([0, 3].contains(report.outcome.exitCode.rawValue))
                #expect(
                    result.stdout.contains("::warning::launch time inconclusive")
                        == (report.outcome.exitCode.rawValue == 3),
                    "\(result.stdout)")
                // With GITHUB_ACTIONS=true the verdict is a workflow command too.
                #expect(result.stdout.contains("::notice") || result.stdout.contains("::warning"), "\(result.stdout)")
            }
        }
        // The summary has the comparison's Markdown; the artifact's files exist.
        let markdown = ScratchDirectory.read(environment["GITHUB_STEP_SUMMARY"]!)
        #expect(markdown.contains("launch-time") || markdown.contains("MyApp"), "\(markdown.prefix(300))")
        try Self.expectArtifactFiles(yaml, in: work)
    }

    @Test func theServerJobsLocalStepsRunWithGitHubActionsSet() throws {
        let yaml = try Self.job("### A server")
        #expect(yaml.contains("PORT: \"8080\"") && yaml.contains(#"--ready "port:$PORT""#))
        #expect(yaml.contains("hashFiles('Package.resolved'") && yaml.contains(".base/.build"))
        #expect(yaml.contains("issues/comments/$id") && yaml.contains("--method PATCH") && yaml.contains("MARKER"))
        try Self.expectRunsAfterFailuresAndUploadsReportsOnly(yaml)
        try Self.expectBuildsTheLaunchprofItRuns(yaml)
        let local = Self.steps(yaml).filter { $0.run != nil && !Self.needsRunner($0) }
        #expect(local.map(\.name) == ["Compare launch time", "Job summary"])

        // A server that listens on --port until it is ended (it never exits by itself): the system's
        // python3 straight, without `site` (a version manager's shim would triple each launch).
        let python =
            ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
            .map { "\($0) -S" } ?? "/usr/bin/env python3 -S"
        let server = """
            #!/bin/sh
            exec \(python) -c '
            import socket, sys, time
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", int(sys.argv[2])))
            s.listen(64)
            while True:
                time.sleep(60)
            ' "$@"

            """
        let scratch = ScratchDirectory("lp-ci-server")
        let work = try Self.checkout(scratch, product: "MyServer", script: server)
        // The job's PORT, here a free one, so that tests running at once do not meet.
        let port = try Self.freePort()
        var environment = Self.runnerEnvironment(scratch)
        environment["PORT"] = String(port)
        for step in local {
            let result = try Executables.run(
                ["-e", "-c", step.run ?? ""], executable: "/bin/bash", environment: environment, in: work,
                timeoutSeconds: 120)
            #expect(result.status == 0 && !result.timedOut, "\(step.name): \(result.stdout)\n\(result.stderr)")
            if step.name == "Compare launch time", let report = try Self.comparison("server-launch-time", in: work) {
                #expect([0, 3].contains(report.outcome.exitCode.rawValue))
                #expect(
                    report.head.configuration.ready == .port(port) && report.base.configuration.ready == .port(port))
                #expect(report.primaryMetric == "timeToReady")
                #expect(report.head.runs.allSatisfy { $0.status == .ok }, "every launch was ready on the port")
            }
        }
        let markdown = ScratchDirectory.read(environment["GITHUB_STEP_SUMMARY"]!)
        #expect(markdown.contains("server-launch-time") || markdown.contains("MyServer"), "\(markdown.prefix(300))")
        try Self.expectArtifactFiles(yaml, in: work)
    }

    /// Each of the artifact's patterns finds report files in `Reports/`: files, none a link or a folder.
    static func expectArtifactFiles(_ yaml: String, in work: URL) throws {
        let reports = work.appendingPathComponent("Reports")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: reports.path)) ?? []
        for pattern in try artifactPaths(yaml) {
            let suffix = String(pattern.dropFirst("Reports/*".count))
            let matched = names.filter { $0.hasSuffix(suffix) }
            #expect(!matched.isEmpty, "\(pattern) matches nothing in \(names)")
            for name in matched {
                let attributes = try FileManager.default.attributesOfItem(
                    atPath: reports.appendingPathComponent(name).path)
                #expect(attributes[.type] as? FileAttributeType == .typeRegular, "\(name) is not a regular file")
            }
        }
    }

    @Test func theCalibrateJobBuildsTheLaunchprofItRuns() throws {
        let yaml = try Self.job("### Calibrate on the runner")
        #expect(yaml.contains("on: workflow_dispatch"))
        try Self.expectBuildsTheLaunchprofItRuns(yaml)
        let calibrate = try #require(Self.steps(yaml).first { $0.name == "Calibrate" }?.run)
        #expect(calibrate.contains("launchprof-bin/launchprof calibrate") && calibrate.contains("--write-budget"))
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
                env:
                  name: not the step's
                run: gh pr comment 1
            """
        let steps = Self.steps(yaml)
        #expect(
            steps == [
                Step(name: "", uses: "actions/checkout@v4"), Step(name: "One", run: "echo one"),
                Step(name: "Two", condition: "always()", run: "a=1\n  indented\necho \"$a\""),
                Step(name: "Three", run: "gh pr comment 1"),
            ])
        #expect(steps.filter { $0.run != nil }.map(Self.needsRunner) == [false, false, true])
    }
}
