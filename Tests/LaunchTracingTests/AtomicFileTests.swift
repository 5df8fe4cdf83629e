import Foundation
import LaunchTracing
import Testing

@Suite("Atomic file")
struct AtomicFileTests {
    let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lp-atomic-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    func entries() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory).sorted()) ?? []
    }

    @Test func replacesTheFileAndLeavesNoTemporaryFile() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/report.json"
        try AtomicFile.write(Array("old".utf8), to: path)
        try AtomicFile.write(Array("new".utf8), to: path)
        #expect(contents(path) == "new")
        #expect(entries() == ["report.json"])
    }

    @Test func neverWritesThroughALinkPlantedAtTheTemporaryName() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/report.json"
        let victim = directory + "/victim"
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: victim))
        let planted = "\(path).tmp-\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: victim)
        try AtomicFile.write(Array("report".utf8), to: path)
        #expect(contents(victim) == "untouched")
        #expect(contents(path) == "report")
        #expect(entries() == ["report.json", "report.json.tmp-\(ProcessInfo.processInfo.processIdentifier)", "victim"])
    }

    @Test func theWriteProbeNeverWritesThroughALinkPlantedAtItsName() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let victim = directory + "/victim"
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: victim))
        let planted = "\(directory)/.launchprof-write-test.tmp-\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: victim)
        try AtomicFile.probeWritable(directory: directory)
        #expect(contents(victim) == "untouched")
        #expect(entries() == [".launchprof-write-test.tmp-\(ProcessInfo.processInfo.processIdentifier)", "victim"])
    }

    @Test func aNewFileIsNeverCreatedThroughALinkOrOverAFile() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let victim = directory + "/victim"
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: victim)
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/dangling", withDestinationPath: directory + "/nothing")
        for name in ["link", "dangling", "victim"] {
            #expect(throws: SystemError(code: EEXIST)) { try AtomicFile.createNew(directory + "/" + name) }
        }
        #expect(contents(victim) == "untouched")
        #expect(!FileManager.default.fileExists(atPath: directory + "/nothing"))
    }

    @Test func failureNamesTheErrorAndLeavesNothingBehind() {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/missing/report.json"
        #expect(throws: SystemError(code: ENOENT)) { try AtomicFile.write([1, 2, 3], to: path) }
        #expect(SystemError(code: ENOENT).description == "no such file or directory")
        #expect(entries().isEmpty)
    }
}
