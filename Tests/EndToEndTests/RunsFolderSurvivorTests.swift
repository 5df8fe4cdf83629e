import Foundation
import LaunchReports
import Testing
import _LaunchProfTestSupport

/// A measurement a stop signal ends keeps its report and its runs; the folder of
/// the launch the signal ended, which the report does not list, is marked
/// (`run-N.interrupted`), so no run folder looks like one of the report's.
@Suite("RunsFolder: the interrupted launch's folder")
struct RunsFolderSurvivorTests {
    let scratch = ScratchDirectory("lp-runs-survivor")

    @Test func theFolderOfTheLaunchASignalEndedIsMarked() throws {
        let output = scratch.file("Reports")
        let counter = scratch.file("count")
        // The second launch sends launchprof SIGTERM itself and waits to be ended: no timing involved.
        let result = try Executables.run(
            [
                "measure", "--runs", "3", "--warmup", "0", "--output", output, "--name", "stopped", "--format", "json",
                "--",
                "/bin/sh", "-c",
                "n=$(cat '\(counter)' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '\(counter)'; "
                    + "if [ $n -ge 2 ]; then kill -TERM $PPID; exec sleep 30; fi; exit 0",
            ],
            in: scratch.url)
        #expect(result.status == 128 + 15, "\(result.stderr)")
        let report = try JSONReport.read(from: output + "/stopped.json")
        #expect(report.runs.map(\.index) == [1], "\(report.runs.map(\.index))")
        let runs = try FileManager.default.contentsOfDirectory(atPath: output + "/stopped.runs").sorted()
        #expect(runs == ["run-1", "run-2.interrupted"], "\(runs)")
    }
}
