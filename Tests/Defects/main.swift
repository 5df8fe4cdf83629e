// launchprof-defects: an app with one launch defect per case, for the advisor's
// defect suite (DefectSuiteTests). Not the sample app: each case does one thing,
// with real system calls, so the finding it must get is known.
//
//   launchprof-defects CASE MS [main|background] SCRATCH_DIR
//
// CASE is a `Defect` (disk-read, sleep, process…); MS its size in milliseconds;
// `main` does it on the main thread inside didFinishLaunching, `background` moves it
// off the main queue with app.runInBackground (the remedy the advisor recommends).
// SCRATCH_DIR holds the files, named pipes and sockets the defect needs.

import Foundation
import LaunchHarness
import LaunchTracing

#if os(Linux)

    let arguments = CommandLine.arguments
    guard arguments.count == 5, let defect = Defect(rawValue: arguments[1]), let size = Double(arguments[2]),
        ["main", "background"].contains(arguments[3])
    else {
        FileHandle.standardError.write(
            Data(
                ("usage: launchprof-defects CASE MS main|background SCRATCH_DIR (CASE: "
                    + Defect.allCases.map(\.rawValue).joined(separator: ", ") + ")\n").utf8))
        exit(2)
    }

    /// The case being launched: prepared before the launch, so only the defect is in its span.
    let prepared = Prepared(defect: defect, milliseconds: size, scratch: arguments[4])

    final class DefectDelegate: LaunchDelegate {
        required init() {}

        func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
            if arguments[3] == "main" {
                LaunchTracer.measure("Defect") { prepared.run() }
            } else {
                let work = prepared
                app.runInBackground("Defect") { work.run() }
            }
            return true
        }
    }

    LaunchApplication.main(delegate: DefectDelegate.self, budget: defect.budget, exitAfterLaunch: true)
#else
    FileHandle.standardError.write(Data("launchprof-defects: the defect suite runs on Linux\n".utf8))
    exit(2)
#endif
