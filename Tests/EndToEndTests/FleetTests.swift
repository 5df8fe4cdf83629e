import Foundation
import LaunchAnalysis
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// Reports from several machines: `measure --machine` / `LAUNCHPROF_MACHINE`,
/// `compare --base-report … --head-report …`, and `merge`.
///
/// Both "machines" are this one, told apart by their machine key: what the
/// commands do with the key is what is tested. The base is the naive sample, the
/// head the slowed one (an extra span on the main thread).
@Suite("fleet", .serialized)
struct FleetTests {
    static let environment = ["LAUNCHPROF_SAMPLE_DIR": Executables.temporaryDirectory().path]

    /// Measures `variant` as machine `machine` into `output/<name>.json` (the key by
    /// option, or by `LAUNCHPROF_MACHINE` when `byVariable`).
    static func measure(
        _ variant: String, machine: String, name: String, runs: Int = 6, byVariable: Bool = false, output: URL
    ) throws -> String {
        var arguments = [
            "measure", "--sample", variant, "--runs", "\(runs)", "--warmup", "0", "--quiet", "--budget-ms", "100000",
            "--output", output.path, "--name", name, "--format", "json",
        ]
        var environment = Self.environment
        if byVariable { environment["LAUNCHPROF_MACHINE"] = machine } else { arguments += ["--machine", machine] }
        let result = try Executables.run(arguments, environment: environment)
        // 0 within budget, 1 over it (the naive sample's hooks are over theirs on purpose).
        #expect([0, 1].contains(result.status), "stderr: \(result.stderr)")
        return output.appendingPathComponent("\(name).json").path
    }

    static func comparison(in output: URL) throws -> ComparisonReport? {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        guard let file = files.first(where: { $0.hasSuffix(".comparison.json") }),
            case .comparison(let report) = try JSONReport.readDocument(from: output.appendingPathComponent(file).path)
        else { return nil }
        return report
    }

    @Test func reportsFromTwoMachinesPerSideAreComparedWithinEachMachineAndPooledByMerge() throws {
        let output = Executables.temporaryDirectory()
        let a1 = try Self.measure("naive", machine: "runner-a", name: "a1", output: output)
        let a2 = try Self.measure("naive", machine: "runner-b", name: "a2", byVariable: true, output: output)
        let b1 = try Self.measure("slowed", machine: "runner-a", name: "b1", output: output)
        let b2 = try Self.measure("slowed", machine: "runner-b", name: "b2", byVariable: true, output: output)
        #expect(try JSONReport.read(from: a1).environment.machine == "runner-a")
        #expect(try JSONReport.read(from: a2).environment.machine == "runner-b")

        // compare --base-report a1 --base-report a2 --head-report b1 --head-report b2
        let compared = Executables.temporaryDirectory()
        let result = try Executables.run(
            [
                "compare", "--base-report", a1, "--base-report", a2, "--head-report", b1, "--head-report", b2,
                "--output", compared.path, "--no-color",
            ], environment: Self.environment)
        // Measured one after the other, not interleaved, while other suites load the machine:
        // any verdict may come out. This test is about the plumbing (per-machine figures, the
        // stratified test, pooling); regression detection is shown on interleaved launches.
        #expect([0, 1, 3].contains(result.status), "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        let report = try #require(try Self.comparison(in: compared))
        #expect(report.outcome.exitCode.rawValue == result.status)
        let fleet = try #require(report.fleet)
        #expect(fleet.test == .vanElteren)
        #expect(fleet.machineKeys == ["runner-a", "runner-b"])
        #expect(fleet.machines.allSatisfy { $0.baseCount == 6 && $0.headCount == 6 })
        // Each machine's own figures are its own launches' (their direction is left to the
        // statistics' unit tests: measured one after the other on a loaded machine, a
        // machine's 6 launches a side may go either way).
        for machine in fleet.machines {
            let own = { (side: MeasurementReport) in
                side.runs.filter { side.machine(of: $0) == machine.machine }.compactMap {
                    $0.milliseconds(.timeToFirstFrame)
                }
            }
            #expect(machine.baseMedianMs == Summary.median(own(report.base)), "\(machine)")
            #expect(machine.headMedianMs == Summary.median(own(report.head)), "\(machine)")
            #expect(machine.shiftMs.isFinite && (machine.shiftMs > 0) == (machine.shiftPercent > 0), "\(machine)")
        }
        #expect(fleet.leftOut.isEmpty)
        #expect(fleet.resamples == 0)  // the interval inverts van Elteren's test (schema 2)
        #expect(report.primary?.fleet == fleet)
        #expect(report.primary?.baseMs.count == 12)
        #expect(report.base.machineKeys == ["runner-a", "runner-b"])
        #expect(report.name == "compare-a1-vs-b1")
        #expect(result.stdout.contains("van Elteren"))
        #expect(result.stdout.contains("runner-a: 6 vs 6 launches"))
        let markdown = try String(
            contentsOf: compared.appendingPathComponent("\(report.name).comparison.md"), encoding: .utf8)
        #expect(markdown.contains("runner-b: 6 vs 6 launches"))
        let html = try String(
            contentsOf: compared.appendingPathComponent("\(report.name).comparison.html"), encoding: .utf8)
        #expect(html.contains("base · runner-a (6)") && html.contains("head · runner-b (6)"))

        // merge: the base side pooled, each run keeping its machine; report shows it per machine.
        let fleetFile = output.appendingPathComponent("pooled/fleet.json").path
        let merged = try Executables.run(["merge", a1, a2, "-o", fleetFile])
        #expect(merged.status == 0, "stderr: \(merged.stderr)")
        #expect(merged.stdout.contains("2 machine(s)"))
        let toStandardOutput = try Executables.run(["merge", a1, a2, "-o", "-"])
        #expect(
            toStandardOutput.status == 0 && toStandardOutput.stdout.hasPrefix("{")
                && toStandardOutput.stdout.contains("\"runner-b\""))
        let pooled = try JSONReport.read(from: fleetFile)
        #expect(pooled.name == "fleet")
        #expect(pooled.machineKeys == ["runner-a", "runner-b"])
        #expect(pooled.machines?.map(\.machine) == ["runner-a", "runner-b"])
        #expect(pooled.profile.runCount == 12)
        #expect(pooled.runs.map(\.index) == Array(1...12))
        #expect(
            pooled.runs.prefix(6).allSatisfy { $0.machine == "runner-a" }
                && pooled.runs.suffix(6).allSatisfy { $0.machine == "runner-b" })
        let terminal = try Executables.run(["report", fleetFile, "--format", "terminal", "--output", "-", "--no-color"])
        #expect(terminal.status == 0, "stderr: \(terminal.stderr)")
        #expect(terminal.stdout.contains("machines (timeToFirstFrame, 2)"), "\(terminal.stdout)")
        #expect(terminal.stdout.contains("runner-a: 6 runs, median"))
        let page = try Executables.run(["report", fleetFile, "--format", "html", "--output", "-"])
        #expect(page.stdout.contains("class=\"lane m0\"") && page.stdout.contains("class=\"lane m1\""))
        #expect(page.stdout.contains("runner-b (6)"))

        // A pooled side, and a machine on one side only: reported, left out, and the rest still compared.
        let c = try Self.measure("slowed", machine: "runner-c", name: "c", runs: 3, output: output)
        let headFile = output.appendingPathComponent("pooled/head.json").path
        #expect(try Executables.run(["merge", b1, b2, c, "-o", headFile]).status == 0)
        let againstPooled = Executables.temporaryDirectory()
        let second = try Executables.run(
            ["compare", fleetFile, headFile, "--output", againstPooled.path, "--no-color"],
            environment: Self.environment)
        // Measured one after the other as above: any verdict may come out (a pass too, when the
        // slowed side happened to run at a quieter moment); this part is about the machine left out.
        #expect([0, 1, 3].contains(second.status), "stdout: \(second.stdout)\nstderr: \(second.stderr)")
        let withLeftOut = try #require(try Self.comparison(in: againstPooled))
        #expect(withLeftOut.outcome.exitCode.rawValue == second.status)
        #expect(withLeftOut.fleet?.machineKeys == ["runner-a", "runner-b"])
        let leftOut = try #require(withLeftOut.fleet?.leftOut.first)
        #expect(withLeftOut.fleet?.leftOut.count == 1)
        #expect(leftOut.machine == "runner-c" && leftOut.side == .head && leftOut.launches == 3)
        #expect(withLeftOut.warnings.contains { $0.contains("'runner-c' has head launches only (3): left out") })
        #expect(withLeftOut.primary?.headMs.count == 15)
        #expect(second.stdout.contains("runner-c: head only (3 launches), left out"))
    }

    @Test func badFleetInputIsOneLineAndExitTwo() throws {
        func expectError(_ arguments: [String], mentions: [String]) throws {
            let result = try Executables.run(arguments, environment: Self.environment)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            for fragment in mentions { #expect(result.stderr.contains(fragment), "\(result.stderr) lacks \(fragment)") }
        }
        let help = try Executables.run(["merge", "--help"])
        #expect(help.status == 0 && help.stdout.contains("  -o FILE") && !help.stdout.contains("\\("), "\(help.stdout)")
        let scratch = Executables.temporaryDirectory()
        let missing = scratch.appendingPathComponent("missing.json").path
        try expectError(["compare", "--base-report", missing], mentions: ["--head-report"])
        try expectError(["compare", "--base-report", missing, "--head-report", missing], mentions: [missing])
        try expectError(
            ["compare", "--base-report", missing, "--head-report", missing, "--base-sample", "naive"],
            mentions: ["--base-sample"])
        try expectError(["merge", missing], mentions: ["-o"])
        try expectError(["merge", "-o", scratch.appendingPathComponent("x.json").path], mentions: ["report files"])
        try expectError(["merge", missing, "-o", scratch.appendingPathComponent("x.json").path], mentions: [missing])
        try expectError(["measure", "--machine", " ", "--runs", "1"], mentions: ["--machine"])
        // Reports measured to different ready conditions are not the same quantity.
        let output = Executables.temporaryDirectory()
        let instrumented = try Self.measure("naive", machine: "m", name: "frame", runs: 2, output: output)
        // No machine with launches on both sides: nothing to compare.
        let elsewhere = try Self.measure("naive", machine: "n", name: "elsewhere", runs: 2, output: output)
        try expectError(
            ["compare", "--base-report", instrumented, "--head-report", elsewhere, "--output", output.path, "--quiet"],
            mentions: ["no machine has launches on both sides (base: m; head: n)"])
        let exit = try Executables.run([
            "measure", "--runs", "2", "--warmup", "0", "--quiet", "--output", output.path, "--format", "json",
            "--ready", "exit", "--", "true",
        ])
        #expect(exit.status == 0, "stderr: \(exit.stderr)")
        try expectError(
            [
                "merge", instrumented, output.appendingPathComponent("true.json").path, "-o",
                output.appendingPathComponent("x.json").path,
            ],
            mentions: ["cannot pool", "measured to first-frame"])
    }
}
