import Foundation
import LaunchTracing
import Testing
import _LaunchProfTestSupport

/// Whole input files are read only from regular files, up to a limit, and
/// never block: what a budget, trace or report path may name is anything.
@Suite("Bounded file reads")
struct BoundedFileTests {
    let scratch = ScratchDirectory("lp-bounded")

    @Test func aRegularFileUpToTheLimitIsReadWhole() throws {
        let path = try scratch.write("0123456789", to: "ten.txt")
        #expect(try BoundedFile.read(path, limit: 10) == Array("0123456789".utf8))
        #expect(try BoundedFile.read(path, limit: 1 << 20) == Array("0123456789".utf8))
        #expect(throws: BoundedFileError.tooLarge(limit: 9)) { try BoundedFile.read(path, limit: 9) }
        let empty = try scratch.write("", to: "empty.txt")
        #expect(try BoundedFile.read(empty, limit: 4).isEmpty)
    }

    @Test func devicesFIFOsAndDirectoriesAreRefusedWithoutReading() throws {
        #expect(throws: BoundedFileError.notRegular(kind: "a character device")) {
            try BoundedFile.read("/dev/zero", limit: 1 << 20)
        }
        #expect(throws: BoundedFileError.notRegular(kind: "a directory")) {
            try BoundedFile.read(scratch.path, limit: 1 << 20)
        }
        // A FIFO with no writer would block a plain open for reading forever.
        let fifo = scratch.file("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: BoundedFileError.notRegular(kind: "a FIFO")) { try BoundedFile.read(fifo, limit: 1 << 20) }
        #expect(BoundedFileError.notRegular(kind: "a FIFO").description == "it is a FIFO, not a regular file")
    }

    @Test func aLinkIsFollowedOnlyWhenAsked() throws {
        let target = try scratch.write("{}", to: "target.json")
        let link = scratch.file("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(try BoundedFile.read(link, limit: 16) == Array("{}".utf8))
        #expect(throws: BoundedFileError.symbolicLink) { try BoundedFile.read(link, limit: 16, followLinks: false) }
        // A link to a device is refused either way.
        let zero = scratch.file("zero")
        try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
        #expect(throws: BoundedFileError.notRegular(kind: "a character device")) {
            try BoundedFile.read(zero, limit: 16)
        }
        #expect(throws: BoundedFileError.symbolicLink) { try BoundedFile.read(zero, limit: 16, followLinks: false) }
    }

    @Test func aMissingFileSaysSo() {
        do {
            _ = try BoundedFile.read(scratch.file("absent"), limit: 16)
            Issue.record("a missing file was read")
        } catch {
            #expect(error.isMissing)
            #expect(error.description == "no such file or directory")
        }
        #expect(!BoundedFileError.notRegular(kind: "a FIFO").isMissing)
    }

    @Test func aTraceIsReadOnlyFromARegularFileAndItsLinkRefusedWhenAsked() throws {
        let path = scratch.file("link.lptrace")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        #expect(throws: TraceFileError.cannotRead(path: path, reason: "it is a symbolic link (not followed)")) {
            _ = try Trace.read(from: path, followingLinks: false)
        }
        #expect(throws: TraceFileError.cannotRead(path: path, reason: "it is a character device, not a regular file")) {
            _ = try Trace.read(from: path)
        }
    }
}
