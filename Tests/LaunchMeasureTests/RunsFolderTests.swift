import Foundation
import LaunchAnalysis
import LaunchMeasure
import Testing
import _LaunchProfTestSupport

/// The runs folder on its own, in a scratch folder: no process is started.
@Suite("Runs folder")
struct RunsFolderTests {
    let scratch = ScratchDirectory("runs-folder")

    func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
    }

    /// `app.runs/run-1/stdout.txt`, as an earlier measurement left it.
    func oldRuns() throws {
        try FileManager.default.createDirectory(
            atPath: scratch.file("app.runs/run-1"), withIntermediateDirectories: true)
        try scratch.write("old run\n", to: "app.runs/run-1/stdout.txt")
    }

    @Test func commitPutsTheNewFolderInPlaceOfTheOld() throws {
        try oldRuns()
        let runs = try RunsFolder(replacing: scratch.file("app.runs"))
        #expect(try entries().contains { $0.hasPrefix("app.runs.tmp-") }, "the new folder is made beside the old one")
        #expect(!runs.keepsRuns)
        _ = try runs.root.makeSubdirectory("run-1")
        try runs.commit()
        #expect(try entries() == ["app.runs"])
        #expect(runs.keepsRuns)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.file("app.runs/run-1")).isEmpty,
            "no file of the old runs survives")
    }

    @Test func discardLeavesTheOldFolder() throws {
        try oldRuns()
        let runs = try RunsFolder(replacing: scratch.file("app.runs"))
        runs.discard()
        #expect(try entries() == ["app.runs"])
        #expect(ScratchDirectory.read(scratch.file("app.runs/run-1/stdout.txt")) == "old run\n")
        #expect(!runs.keepsRuns)
    }

    @Test func aLinkInItsPlaceIsRefusedBeforeAnythingIsMade() throws {
        try FileManager.default.createDirectory(atPath: scratch.file("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: scratch.file("app.runs"), withDestinationPath: scratch.file("elsewhere"))
        #expect(throws: LaunchError.linkInTheWay(path: scratch.file("app.runs"))) {
            _ = try RunsFolder(replacing: scratch.file("app.runs"))
        }
        #expect(try entries() == ["app.runs", "elsewhere"])
    }

    @Test func stagingFoldersNoSessionHoldsAreSweptAndOthersAreLeft() throws {
        for name in ["app.runs.tmp-99", "app.runs.old.tmp-7-2", "app.runs.tmp-x", "other.runs.tmp-5"] {
            try FileManager.default.createDirectory(atPath: scratch.file(name), withIntermediateDirectories: true)
        }
        let held = try RunsFolder(replacing: scratch.file("app.runs"))
        let second = try RunsFolder(replacing: scratch.file("app.runs"))
        let names = try entries()
        #expect(!names.contains("app.runs.tmp-99") && !names.contains("app.runs.old.tmp-7-2"))
        #expect(
            names.contains("app.runs.tmp-x") && names.contains("other.runs.tmp-5"),
            "only names a session makes are swept")
        #expect(
            names.contains(URL(fileURLWithPath: held.root.path).lastPathComponent),
            "a folder a live session holds is left")
        withExtendedLifetime(second) {}
    }

    @Test func relocatedMovesTheRunsPathsToWhereTheCommitPutsThem() throws {
        let runs = try RunsFolder(replacing: scratch.file("app.runs"))
        let root = runs.root.path
        var record = RunRecord(
            index: 1, isWarmup: false, status: .crashed, stdoutPath: root + "/run-1/stdout.txt",
            stderrPath: root + "/run-1/stderr.txt")
        record.problem = "killed by signal 11 (stderr: cannot open \(root)/run-1/data)"
        let collected = CollectedLaunches(
            runs: [record], appBudget: nil,
            environment: MachineEnvironment(
                hostname: "h", operatingSystem: "Linux", cpuModel: "c", cpuCount: 1, clockSource: "monotonic"),
            finishedAt: "2026-11-26T00:00:00Z")
        let moved = runs.relocated(collected).runs[0]
        #expect(moved.stdoutPath == scratch.file("app.runs") + "/run-1/stdout.txt")
        #expect(moved.stderrPath == scratch.file("app.runs") + "/run-1/stderr.txt")
        #expect(moved.problem == "killed by signal 11 (stderr: cannot open \(scratch.file("app.runs"))/run-1/data)")
        runs.discard()
    }

    @Test func aTemporaryFolderStaysWhereItIs() throws {
        let runs = try RunsFolder(temporaryFor: "app")
        defer { try? FileManager.default.removeItem(atPath: runs.root.path) }
        #expect(runs.finalPath == runs.root.path)
        #expect(URL(fileURLWithPath: runs.root.path).lastPathComponent.hasPrefix("launchprof-app.runs-"))
        try runs.commit()
        #expect(runs.keepsRuns)
        #expect(FileManager.default.fileExists(atPath: runs.root.path))
    }
}
