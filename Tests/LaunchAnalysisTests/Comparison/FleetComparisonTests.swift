import Foundation
import LaunchAnalysis
import LaunchTracing
import Testing

/// Machines in reports and comparisons: the machine key, pooling reports, and a
/// comparison stratified by machine.
@Suite("Fleet comparison")
struct FleetComparisonTests {
    /// A measurement of an uninstrumented program on machine `machine`.
    static func measured(_ values: [Double], machine: String) -> MeasurementReport {
        var report = ReportOutcomeTests.report(values, budgetMs: 10_000)
        report.environment.machine = machine
        // Base and head recorded in one session: these tests are of the stratified launch-level test.
        report.session = "one-session"
        return report
    }

    static func compare(_ base: MeasurementReport, _ head: MeasurementReport, acrossMachines: Bool = true)
        -> ComparisonReport
    {
        let plan = ComparisonPlan(
            name: "c", source: .storedReports, settings: GateSettings(), stages: [20], stratifyByMachine: acrossMachines
        )
        return ComparisonReport(plan: plan, base: base, head: head, stagesRun: 1, createdAt: "2026-11-23T10:00:00Z")
    }

    static func pooled(_ reports: [MeasurementReport]) throws -> MeasurementReport {
        try MeasurementReport(merging: reports, name: "fleet", createdAt: "2026-11-23T11:00:00Z")
    }

    @Test func theDefaultMachineKeyIsTheCPUCoresAndOperatingSystemNotTheHostName() throws {
        let environment = MachineEnvironment(
            hostname: "runner-7f3a", operatingSystem: "Linux 6.1.0-18-amd64 x86_64",
            cpuModel: "AMD EPYC 7763 64-Core Processor",
            cpuCount: 4, clockSource: "tsc")
        #expect(environment.machine == "AMD EPYC 7763 64-Core Processor ×4, Linux x86_64")
        var renamed = environment
        renamed.hostname = "runner-0b1c"
        #expect(
            MachineEnvironment(
                hostname: "runner-0b1c", operatingSystem: renamed.operatingSystem, cpuModel: renamed.cpuModel,
                cpuCount: 4, clockSource: "tsc"
            ).machine == environment.machine)
        #expect(
            MachineEnvironment(
                hostname: "h", operatingSystem: "Linux", cpuModel: "c", cpuCount: 1, clockSource: "tsc",
                machine: "  pixel-8  "
            )
            .machine == "pixel-8")
        #expect(
            MachineEnvironment(
                hostname: "h", operatingSystem: "Linux", cpuModel: "c", cpuCount: 1, clockSource: "tsc", machine: " "
            )
            .machine == "c ×1, Linux")
    }

    @Test func aReportWrittenBeforeTheMachineKeyGetsTheDefaultKeyAndKeepsAGivenOne() throws {
        let old =
            #"{"hostname": "ci-3", "operatingSystem": "Linux 5.15.0 aarch64", "cpuModel": "Neoverse-N1", "cpuCount": 8, "clockSource": "tsc"}"#
        let decoded = try JSONDecoder().decode(MachineEnvironment.self, from: Data(old.utf8))
        #expect(decoded.machine == "Neoverse-N1 ×8, Linux aarch64")
        var named = decoded
        named.machine = "arm-runner"
        let again = try JSONDecoder().decode(MachineEnvironment.self, from: JSONEncoder().encode(named))
        #expect(again == named)
    }

    @Test func theMachineOptionNamesTheReportsMachine() {
        let plan = MeasurementPlan(
            name: "app", commandLine: [], command: ["app"], runs: 1, warmup: 0, mode: .warm, ready: nil,
            timeoutSeconds: 20,
            machine: "ci-large")
        let collected = CollectedLaunches(
            runs: [ReportOutcomeTests.run(1, 100)], appBudget: nil, environment: ReportOutcomeTests.machine,
            finishedAt: "2026-11-23T10:00:00Z")
        let report = MeasurementReport(
            plan: plan, collected: collected, budget: BudgetResolution(timeToFirstFrameMs: 400))
        #expect(report.environment.machine == "ci-large")
        #expect(report.environment.hostname == ReportOutcomeTests.machine.hostname)
    }

    @Test func poolingKeepsEveryRunsMachineAndNumbersTheRunsAgain() throws {
        let fleet = try Self.pooled([
            Self.measured([100, 101, 102], machine: "a"), Self.measured([200, 201], machine: "b"),
        ])
        #expect(fleet.runs.map(\.index) == [1, 2, 3, 4, 5])
        #expect(fleet.runs.map { fleet.machine(of: $0) } == ["a", "a", "a", "b", "b"])
        #expect(fleet.machineKeys == ["a", "b"])
        #expect(fleet.machines?.map(\.machine) == ["a", "b"])
        #expect(fleet.profile.runCount == 5)
        #expect(fleet.configuration.runs == 5)
        #expect(fleet.machineBreakdown(.timeToReady).map(\.summary.median) == [101, 200.5])
        // Outliers are judged within each machine: the slower machine's runs are none.
        #expect(fleet.profile.statistics(.timeToReady)?.outlierRuns == [])
        let wild = try Self.pooled([
            Self.measured([100, 101, 102, 101, 300], machine: "a"), Self.measured([200, 201, 202], machine: "b"),
        ])
        #expect(wild.profile.statistics(.timeToReady)?.outlierRuns == [5])
        // A pooled report pooled again is taken apart into its machines.
        let again = try Self.pooled([fleet, Self.measured([300], machine: "c")])
        #expect(again.machineKeys == ["a", "b", "c"])
        #expect(again.machines?.count == 3)
        // Its JSON keeps every run's machine.
        let decoded = try JSONDecoder().decode(MeasurementReport.self, from: JSONEncoder().encode(again))
        #expect(decoded.machineKeys == ["a", "b", "c"])
    }

    @Test func reportsLaunchedDifferentlyCannotBePooled() {
        var cold = Self.measured([100], machine: "b")
        cold.configuration.mode = .cold
        #expect(throws: ComparisonError.self) { try Self.pooled([Self.measured([100], machine: "a"), cold]) }
        #expect(throws: ComparisonError.cannotPool("no report given")) { try Self.pooled([]) }
    }

    @Test func twoMachinesAreComparedWithinEachAndAMachineOnOneSideIsLeftOut() throws {
        // Machine b is 50 % slower than machine a; the head runs mostly on b. No real change.
        let base = try Self.pooled([
            Self.measured(ComparisonReportTests.around(100, 20), machine: "a"),
            Self.measured(ComparisonReportTests.around(150, 6), machine: "b"),
        ])
        let head = try Self.pooled([
            Self.measured(ComparisonReportTests.around(100.5, 6), machine: "a"),
            Self.measured(ComparisonReportTests.around(150.5, 20), machine: "b"),
            Self.measured(ComparisonReportTests.around(400, 5), machine: "c"),
        ])
        let stratified = Self.compare(base, head)
        let fleet = try #require(stratified.fleet)
        #expect(fleet.test == .vanElteren)
        #expect(fleet.machineKeys == ["a", "b"])
        #expect(fleet.machines.map(\.baseCount) == [20, 6])
        #expect(fleet.machines.map(\.headCount) == [6, 20])
        #expect(fleet.machines.allSatisfy { abs($0.shiftPercent) < 2 })
        #expect(fleet.leftOut.count == 1)
        #expect(
            fleet.leftOut.first?.machine == "c" && fleet.leftOut.first?.side == .head
                && fleet.leftOut.first?.launches == 5)
        #expect(stratified.warnings.contains("machine 'c' has head launches only (5): left out"))
        #expect(stratified.verdict == .pass, "\(stratified.outcome.reason)")
        #expect(abs(try #require(stratified.primary).shiftPercent) < 2)
        // Pooled as if from one machine, the slow machine looks like a regression.
        let naive = Self.compare(base, head, acrossMachines: false)
        #expect(naive.fleet == nil)
        #expect(naive.verdict != .pass)
        #expect(try #require(naive.primary).slowerPValue < 0.001, "pooled, the head looks significantly slower")
    }

    @Test func withOneMachineTakingPartTheSingleMachineStatisticsDecide() throws {
        let base = Self.measured(ComparisonReportTests.around(100), machine: "a")
        let head = try Self.pooled([
            Self.measured(ComparisonReportTests.around(112), machine: "a"), Self.measured([500, 510], machine: "b"),
        ])
        let single = Self.compare(
            base, Self.measured(ComparisonReportTests.around(112), machine: "a"), acrossMachines: false)
        let stratified = Self.compare(base, head)
        let one = try #require(stratified.primary)
        let reference = try #require(single.primary)
        #expect(one.fleet?.test == .mannWhitney)
        #expect(one.fleet?.leftOut.map(\.machine) == ["b"])
        #expect(one.shiftPercent == reference.shiftPercent)
        #expect(one.intervalPercent == reference.intervalPercent)
        #expect(one.pValue == reference.pValue)
        #expect(one.method == reference.method)
        #expect(stratified.verdict == single.verdict)
    }

    @Test func noMachineOnBothSidesIsNothingToCompare() throws {
        let stratified = Self.compare(
            Self.measured(ComparisonReportTests.around(100), machine: "a"),
            Self.measured(ComparisonReportTests.around(100), machine: "b"))
        #expect(stratified.outcome.status == .incomparable)
        #expect(stratified.outcome.exitCode.rawValue == 2)
        #expect(stratified.problem == "nothing to compare: no machine has launches on both sides (base: a; head: b)")
        #expect(stratified.fleet == nil)
    }

    @Test func aFleetComparisonRoundTripsThroughJSON() throws {
        let base = try Self.pooled([
            Self.measured(ComparisonReportTests.around(100, 8), machine: "a"),
            Self.measured(ComparisonReportTests.around(150, 8), machine: "b"),
        ])
        let head = try Self.pooled([
            Self.measured(ComparisonReportTests.around(120, 8), machine: "a"),
            Self.measured(ComparisonReportTests.around(180, 8), machine: "b"),
        ])
        let report = Self.compare(base, head)
        #expect(report.verdict == .regression, "\(report.outcome.reason)")
        #expect(report.outcome.exitCode.rawValue == 1)
        #expect(report.fleet?.machines.allSatisfy { ($0.shiftPercent - 20).magnitude < 2 } == true)
        let decoded = try JSONDecoder().decode(ComparisonReport.self, from: JSONEncoder().encode(report))
        #expect(decoded == report)
    }
}
