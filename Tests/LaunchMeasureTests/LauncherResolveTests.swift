import Foundation
import LaunchMeasure
import Testing
import _LaunchProfTestSupport

/// `Launcher.resolve`: PATH lookup and paths, checked before any launch.
///
/// Tests run as root on some machines, where `access(X_OK)` passes for any file
/// with an execute bit; so the files checked here are made by the tests.
@Suite("Launcher.resolve")
struct LauncherResolveTests {
    let scratch = ScratchDirectory("launchmeasure-tests")

    @Test("a name is looked up in PATH")
    func findsInPath() throws {
        let path = try Launcher.resolve("sleep")
        #expect(path.hasPrefix("/"))
        #expect(path.hasSuffix("/sleep"))
        #expect(FileManager.default.isExecutableFile(atPath: path))
    }

    @Test("an absolute path to an executable is returned as is")
    func absolutePath() throws {
        let program = try scratch.write("#!/bin/sh\nexit 0\n", to: "prog", permissions: 0o755)
        #expect(try Launcher.resolve(program) == program)
    }

    @Test("a relative path is taken from the current directory")
    func relativePath() throws {
        let program = try scratch.write("#!/bin/sh\nexit 0\n", to: "prog", permissions: 0o755)
        let current = FileManager.default.currentDirectoryPath
        let depth = current.split(separator: "/").count
        let relative = String(repeating: "../", count: depth) + program.drop { $0 == "/" }
        let resolved = try Launcher.resolve(relative)
        #expect(resolved.hasPrefix("/"))
        #expect(resolved.hasSuffix(relative))
        #expect(
            URL(fileURLWithPath: resolved).standardizedFileURL.path
                == URL(fileURLWithPath: program).standardizedFileURL.path)
    }

    @Test("a relative path that does not exist is not found, without a PATH search")
    func missingRelative() {
        #expect(throws: LaunchError.programNotFound("./launchprof-no-such-program", searchedPATH: false)) {
            try Launcher.resolve("./launchprof-no-such-program")
        }
    }

    @Test("a directory is not a program")
    func directory() {
        #expect(throws: LaunchError.notAProgram(path: scratch.path, isDirectory: true)) {
            try Launcher.resolve(scratch.path)
        }
    }

    @Test("a device is not a program")
    func device() {
        #expect(throws: LaunchError.notAProgram(path: "/dev/null", isDirectory: false)) {
            try Launcher.resolve("/dev/null")
        }
    }

    @Test("a file without an execute bit is not executable")
    func notExecutable() throws {
        let plain = try scratch.write("#!/bin/sh\nexit 0\n", to: "plain", permissions: 0o644)
        #expect(throws: LaunchError.notExecutable(path: plain)) {
            try Launcher.resolve(plain)
        }
    }

    @Test("a name found nowhere in PATH says so")
    func missingName() {
        let name = "launchprof-no-such-program-\(getpid())"
        let error = #expect(throws: LaunchError.self) { try Launcher.resolve(name) }
        #expect(error == .programNotFound(name, searchedPATH: true))
        #expect(error?.description == "no such program: '\(name)' (not found in PATH)")
    }

    @Test("an empty name is no program")
    func empty() {
        #expect(throws: LaunchError.programNotFound("", searchedPATH: false)) {
            try Launcher.resolve("")
        }
    }
}
