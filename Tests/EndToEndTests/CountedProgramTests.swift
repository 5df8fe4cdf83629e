import Foundation
import LaunchAnalysis
import LaunchMeasure
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// `--metric instructions` counts the program that was timed: at its own path, with
/// its own folder around it. Before, a binary with debug information was counted
/// through a copy in the runs folder, beside links to its folder's entries; a
/// virtual environment's configuration, one folder up, was not found by the copy,
/// so two environments counted the same and a real regression passed at +0.00 %.
@Suite(
    "Counted program", .serialized,
    .enabled(if: (try? InstructionCounter.locate()) != nil, "valgrind is not installed (apt-get install valgrind)"))
struct CountedProgramTests {
    /// A C compiler, to build a program with DWARF 5 debug information.
    static let compiler = ["/usr/bin/cc", "/usr/bin/clang", "/opt/swift/usr/bin/clang"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// A program laid out as a virtual environment's interpreter: `bin/prog` finds
    /// `venv.cfg` one folder above the folder its `argv[0]` names, spins that many
    /// turns and prints what it found. `second` is a second environment whose
    /// `bin/prog` links to the first's binary (as `venv` does), with `turns2` turns.
    static func environments(turns: Int, turns2: Int) throws -> (first: String, second: String) {
        let root = Executables.temporaryDirectory().path
        let source = root + "/prog.c"
        try """
        #include <stdio.h>
        #include <string.h>
        #include <libgen.h>
        int main(int argc, char **argv) {
            char path[4096]; strncpy(path, argv[0], sizeof path - 1); path[sizeof path - 1] = 0;
            char config[4096]; snprintf(config, sizeof config, "%s/../venv.cfg", dirname(path));
            FILE *file = fopen(config, "r"); long turns = 0;
            if (file) { if (fscanf(file, "%ld", &turns) != 1) turns = 0; fclose(file); }
            volatile long sum = 0; for (long i = 0; i < turns; i++) sum += i;
            printf("%s %ld\\n", file ? "venv" : "base", turns);
            return 0;
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        for folder in ["/v1/bin", "/v2/bin"] {
            try FileManager.default.createDirectory(atPath: root + folder, withIntermediateDirectories: true)
        }
        let build = try Executables.run(
            ["-g", "-gdwarf-5", "-O0", source, "-o", root + "/v1/bin/prog"], executable: try #require(compiler))
        try #require(build.status == 0, "\(build.stderr)")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/v2/bin/prog", withDestinationPath: root + "/v1/bin/prog")
        try "\(turns)\n".write(toFile: root + "/v1/venv.cfg", atomically: true, encoding: .utf8)
        try "\(turns2)\n".write(toFile: root + "/v2/venv.cfg", atomically: true, encoding: .utf8)
        return (root + "/v1/bin/prog", root + "/v2/bin/prog")
    }

    /// `compare --metric instructions`, one timed launch a side; its status, report, stderr and output folder.
    func compare(_ base: String, _ head: String, name: String) throws -> (
        status: Int32, report: ComparisonReport?, stderr: String, output: URL
    ) {
        let output = Executables.temporaryDirectory()
        let result = try Executables.run(
            [
                "compare", "--metric", "instructions", "--base", base, "--head", head, "--runs", "1", "--warmup", "0",
                "--name", name, "--output", output.path, "--format", "json",
            ], timeoutSeconds: 1_200)
        let document = try? JSONReport.readDocument(from: output.appendingPathComponent("\(name).comparison.json").path)
        guard case .comparison(let report)? = document else { return (result.status, nil, result.stderr, output) }
        return (result.status, report, result.stderr, output)
    }

    /// Every symbolic link under `folder`.
    static func links(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var found: [String] = []
        while let entry = enumerator?.nextObject() as? String {
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: folder.path + "/" + entry)) != nil {
                found.append(entry)
            }
        }
        return found
    }

    @Test(.enabled(if: compiler != nil, "no C compiler (cc or clang) to build the program"))
    func twoEnvironmentsOfOneBinaryAreCountedEachWithItsOwnConfiguration() throws {
        let (first, second) = try Self.environments(turns: 1_000_000, turns2: 2_000_000)
        let heavier = try compare(first, second, name: "venv")
        #expect(heavier.status == 1, "\(heavier.report?.outcome.reason ?? heavier.stderr)")
        let decision = try #require(heavier.report?.instructions?.decision)
        #expect(decision.shift > 0.5, "the second environment spins twice as long: \(decision)")
        // The counted launches printed what the timed ones did: each found its own environment.
        let counted = try String(
            contentsOf: heavier.output.appendingPathComponent("venv.runs/head/counted-001/stdout.txt"), encoding: .utf8)
        #expect(counted == "venv 2000000\n")
        #expect(
            Self.links(under: heavier.output).isEmpty,
            "the runs folder links out of itself: \(Self.links(under: heavier.output))")

        let same = try compare(first, first, name: "venv-aa")
        #expect(same.status == 0, "\(same.report?.outcome.reason ?? same.stderr)")
    }

    /// The fixture's debug information is DWARF 5 that valgrind 3.19 gives up on: it is
    /// counted through a copy without it, mounted over its own path. `own-size` prints
    /// the size of its own file, which the copy changes: the counted launch printed other
    /// bytes than the timed ones, so it is refused (exit 2).
    @Test(.disabled(if: BuiltProducts.areThreadSanitized, "valgrind cannot run a ThreadSanitizer binary"))
    func aCountedLaunchThatPrintsOtherBytesThanTheTimedOnesIsRefused() throws {
        let counter = try InstructionCounter.locate()
        guard let failure = counter.debugInfoFailure(Executables.fixture) else {
            return  // this valgrind reads the fixture as it is: nothing is copied, nothing differs
        }
        #expect(failure.contains("dwarf") || failure.contains("debuginfo"), "\(failure)")
        let fixture = "\(Executables.fixture) own-size"
        let result = try compare(fixture, fixture, name: "self-size")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("is not the program that was timed: its stdout"), "\(result.stderr)")
    }
}
