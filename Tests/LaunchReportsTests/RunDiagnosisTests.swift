import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// A run's problem as a typed value in the JSON (`diagnosis`: a `kind` and its
/// values) beside the prose `problem`, and renderers wording the value.
@Suite("Run diagnosis in the schema")
struct RunDiagnosisTests {
    static let every: [LaunchProblem] = [
        LaunchProblem(.exitedBeforeReady(.stdout(pattern: "listening on"))),
        LaunchProblem(.exitedWithoutAnnouncing(.firstFrame)),
        LaunchProblem(.stopped),
        LaunchProblem(.failedExit(code: 3), stderrLine: "no config found"),
        LaunchProblem(.crashed(signal: 11, signalName: "SEGV")),
        LaunchProblem(.crashed(signal: 64, signalName: nil)),
        LaunchProblem(.timedOut(seconds: 20, silentStdout: true)),
        LaunchProblem(.timedOut(seconds: 0.5, silentStdout: false), isCounted: true),
        LaunchProblem(.invalidTrace(reason: "the trace is not this launch's")),
        LaunchProblem(.backgroundDrawsNoFrame), LaunchProblem(.noFirstFrame), LaunchProblem(.neverFullyDrawn),
        LaunchProblem(.hotModeNeedsHooks), LaunchProblem(.hotLaunchesNotRun(launches: 4)),
        LaunchProblem(
            .countsMissing(reason: "no instruction count in '/tmp/x/callgrind': valgrind: bad"), isCounted: true),
        LaunchProblem(.failedExit(code: 1), stderrLine: "==1== bad option", isCounted: true),
    ]

    @Test func everyKindRoundTripsThroughJSONWithItsValuesAsFields() throws {
        #expect(Set(Self.every.map(\.diagnosis.kind)) == Set(LaunchDiagnosis.Kind.allCases))
        for problem in Self.every {
            let data = try JSONEncoder().encode(problem)
            #expect(
                try JSONDecoder().decode(LaunchProblem.self, from: data) == problem,
                "\(String(decoding: data, as: UTF8.self))")
        }
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.every[3])) as? [String: Any])
        #expect(
            object["kind"] as? String == "failedExit" && object["exitCode"] as? Int == 3
                && object["stderrLine"] as? String == "no config found")
        #expect(object.count == 3, "no other field: \(object)")
    }

    @Test func aReportWrittenBeforeTheDiagnosisReadsWithItsProseAndAnUnknownKindIsRefused() throws {
        let older =
            #"{"index": 2, "isWarmup": false, "status": "failedExit", "problem": "exited with code 3", "exitCode": 3}"#
        let run = try JSONDecoder().decode(RunRecord.self, from: Data(older.utf8))
        #expect(run.diagnosis == nil && run.problemText == "exited with code 3")
        let newer = #"{"index": 2, "isWarmup": false, "status": "failedExit", "diagnosis": {"kind": "eatenByGrue"}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RunRecord.self, from: Data(newer.utf8)) }
    }

    @Test func renderersWordTheTypedValueWhereThereIsOne() throws {
        var report = try SampleReports.uninstrumented([10, nil, 12], ignoreFailures: true)
        let index = try #require(report.runs.firstIndex { $0.status != .ok })
        report.runs[index].problem = "words an older launchprof chose"
        report.runs[index].diagnosis = LaunchProblem(.failedExit(code: 3), stderrLine: "no config found")
        let said = "run 2: exited with code 3 (stderr: no config found)"
        #expect(TerminalReport.render(.measurement(report), options: RenderOptions(color: false)).contains(said))
        #expect(JUnitReport.render(.measurement(report)).contains(said))
        #expect(HTMLReport.render(.measurement(report)).contains("exited with code 3 (stderr: no config found)"))
        report.runs[index].diagnosis = nil
        #expect(
            TerminalReport.render(.measurement(report), options: RenderOptions(color: false)).contains(
                "run 2: words an older launchprof chose"))
    }

    @Test func redactingPathsScrubsTheDiagnosisAsItDoesTheProse() throws {
        var report = try SampleReports.uninstrumented([10, nil, 12], ignoreFailures: true)
        let index = try #require(report.runs.firstIndex { $0.status != .ok })
        report.runs[index].diagnosis = LaunchProblem(
            .invalidTrace(reason: "cannot read /home/alice/secret/trace.lptrace"),
            stderrLine: "open /home/alice/secret/config failed")
        let redacted = try #require(report.redactingPaths().runs[index].diagnosis)
        #expect(!redacted.text.contains("/home/alice"), "\(redacted.text)")
        #expect(redacted.text.contains("trace.lptrace") && redacted.stderrLine?.contains("config") == true)
    }

    /// A `file:` ready condition's path is scrubbed wherever a report carries it: a run's
    /// diagnosis (worded again by every format), a counted run's, and the configuration.
    @Test func redactingPathsScrubsTheReadyPathOfEveryRunAndOfTheConfiguration() throws {
        var report = try SampleReports.uninstrumented([10, nil, 12], ignoreFailures: true)
        let ready = ReadyCondition.file(path: "/home/alice/secret/ready.flag")
        report.configuration.ready = ready
        let index = try #require(report.runs.firstIndex { $0.status != .ok })
        report.runs[index].diagnosis = LaunchProblem(.exitedBeforeReady(ready))
        var counted = report.runs[index]
        counted.diagnosis = LaunchProblem(.exitedWithoutAnnouncing(ready))
        counted.stdoutPath = "/home/alice/out/app.runs/counted-001/stdout.txt"
        report.countedRuns = [counted]
        let redacted = report.redactingPaths(privateNames: PrivateNames(userName: "alice"))
        let texts = [
            redacted.runs[index].problemText, try #require(redacted.countedRuns?.first?.problemText),
            redacted.configuration.ready.description, redacted.countedRuns?.first?.stdoutPath ?? "",
        ]
        for text in texts {
            #expect(!text.contains("/home/alice") && !text.contains("alice"), "\(text)")
        }
        #expect(texts[0].contains("ready.flag"), "\(texts[0])")
        // The prose keeps what stood before the path: a stop's sentence wraps the ready condition in parentheses.
        let names = PrivateNames(userName: "alice")
        #expect(
            names.scrub("exited before it was ready (file:/home/alice/secret/ready.flag never held)")
                == "exited before it was ready (file:ready.flag never held)")
        #expect(
            names.scrub("LAUNCHPROF_TRACE=/home/alice/t.lptrace './home/x' /a/b") == "LAUNCHPROF_TRACE=t.lptrace 'x' b")
        let json = String(decoding: try JSONReport.render(.measurement(redacted)), as: UTF8.self)
        #expect(!json.contains("/home/alice"))
    }
}
