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

    @Test func recordsNameTheRunsWhereTheCommitPutsThemFromTheStart() throws {
        let runs = try RunsFolder(replacing: scratch.file("app.runs"))
        let final = scratch.file("app.runs")
        #expect(runs.root.path != final, "the launches write into a staging folder")
        let platform = ScriptedPlatform([
            ScriptedPlatform.Launch(readyMs: 10, stdout: "hello\n", milestones: [(.firstFrame, 5)])
        ])
        let collected = try MeasureSession.run(
            scriptedRequest(runs: 1, folder: runs.root), progress: nil, platform: platform)
        let run = try #require(collected.runs.first)
        // Recorded once, final: nothing moves them afterwards.
        #expect(run.stdoutPath == final + "/run-1/stdout.txt")
        #expect(run.stderrPath == final + "/run-1/stderr.txt")
        #expect(run.tracePath == final + "/run-1/" + MeasureSession.traceFileName)
        // Before the commit the files are read where they are now; after it, where the record says.
        let now = runs.root.currentPath(ofRecorded: try #require(run.stdoutPath))
        #expect(now == runs.root.path + "/run-1/stdout.txt")
        #expect(try String(contentsOfFile: now, encoding: .utf8) == "hello\n")
        #expect(runs.root.currentPath(ofRecorded: "/elsewhere/x") == "/elsewhere/x")
        try runs.commit()
        #expect(try String(contentsOfFile: try #require(run.stdoutPath), encoding: .utf8) == "hello\n")
        #expect(FileManager.default.fileExists(atPath: try #require(run.tracePath)))
    }

    @Test func aFolderThatCannotBeMadeIsNamedWhereItWouldBe() throws {
        let runs = try RunsFolder(replacing: scratch.file("taken.runs"))
        _ = try runs.root.makeSubdirectory("run-1")
        #expect {
            try runs.root.makeSubdirectory("run-1")
        } throws: { error in
            guard case LaunchError.cannotCreate(let path, _) = error else { return false }
            return path == scratch.file("taken.runs") + "/run-1"
        }
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
