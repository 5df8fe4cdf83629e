import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// The hyperfine export, parsed back and checked against the report it came from.
@Suite("hyperfine report")
struct HyperfineReportTests {
    static func results(_ document: ReportDocument) throws -> [[String: Any]] {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(HyperfineReport.render(document))) as? [String: Any])
        return try #require(root["results"] as? [[String: Any]])
    }

    @Test func timesAreEachCountedSuccessfulRunsTimeToReadyInSeconds() throws {
        for report in [try SampleReports.sample(), try SampleReports.uninstrumented()] {
            let results = try Self.results(.measurement(report))
            #expect(results.count == 1)
            let result = try #require(results.first)
            let expected = report.runs.filter { !$0.isWarmup && $0.status == .ok }.compactMap(\.timeToReadyMs).map {
                $0 / 1000
            }
            let times = try #require(result["times"] as? [Double])
            #expect(times == expected)
            #expect(result["exit_codes"] as? [Int] == expected.map { _ in 0 })
            let sorted = times.sorted()
            let median =
                sorted.count % 2 == 1
                ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            let mean = times.reduce(0, +) / Double(times.count)
            let stddev = (times.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(times.count - 1)).squareRoot()
            #expect(abs((result["median"] as? Double ?? .nan) - median) < 1e-12)
            #expect(abs((result["mean"] as? Double ?? .nan) - mean) < 1e-12)
            #expect(abs((result["stddev"] as? Double ?? .nan) - stddev) < 1e-12)
            #expect(result["min"] as? Double == sorted.first)
            #expect(result["max"] as? Double == sorted.last)
            // These fixtures were written before CPU time was recorded: hyperfine's 0.
            #expect(result["user"] as? Double == 0)
            #expect(result["system"] as? Double == 0)
            #expect(result["command"] as? String == HyperfineReport.commandLine(report.configuration.command))
        }
        #expect(
            try Self.results(.measurement(SampleReports.uninstrumented())).first?["command"] as? String == "/bin/true")
    }

    @Test func userAndSystemAreTheMeanCPUTimeOfTheSameRunsInSeconds() throws {
        let template = try SampleReports.uninstrumented([2.5, 3.5, nil])
        var runs = template.runs
        for index in runs.indices {
            runs[index].cpuTime = CPUTime(
                userNanoseconds: UInt64(index + 1) * 10_000_000, systemNanoseconds: UInt64(index + 1) * 1_000_000)
        }
        // A report as measure makes it: its profile summarises the runs it holds.
        let report = MeasurementReport(
            name: template.name, createdAt: template.createdAt, environment: template.environment,
            configuration: template.configuration, runs: runs)
        let result = try #require(try Self.results(.measurement(report)).first)
        // The failed third run's CPU time is left out, as its time is.
        let counted = report.runs.filter { !$0.isWarmup && $0.status == .ok }.compactMap(\.cpuTime)
        #expect(counted.count == 2)
        let user = counted.map(\.userMilliseconds).reduce(0, +) / 2 / 1000
        let system = counted.map(\.systemMilliseconds).reduce(0, +) / 2 / 1000
        #expect(abs((result["user"] as? Double ?? .nan) - user) < 1e-12)
        #expect(abs((result["system"] as? Double ?? .nan) - system) < 1e-12)
        #expect(user > 0 && system > 0)
    }

    @Test func failedRunsAreLeftOutAndOneRunHasNoStandardDeviation() throws {
        let result = try #require(try Self.results(.measurement(SampleReports.uninstrumented([2.5, nil]))).first)
        #expect(result["times"] as? [Double] == [0.0025])
        #expect(result["stddev"] is NSNull)
        #expect(result["median"] as? Double == 0.0025)

        let none = try #require(try Self.results(.measurement(SampleReports.uninstrumented([nil]))).first)
        #expect(none["times"] as? [Double] == [])
        #expect(none["mean"] is NSNull)
    }

    @Test func aComparisonIsTwoResultsBaseThenHead() throws {
        let comparison = SampleReports.comparison(
            try SampleReports.uninstrumented([1, 2, 3]), try SampleReports.uninstrumented([4, 5]))
        let results = try Self.results(.comparison(comparison))
        #expect(results.map { ($0["parameters"] as? [String: String])?["side"] } == ["base", "head"])
        #expect(results.map { $0["times"] as? [Double] } == [[0.001, 0.002, 0.003], [0.004, 0.005]])
    }

    @Test func eachResultSaysWhatItsTimesAndCPUTimesMeasure() throws {
        let report = try SampleReports.uninstrumented()
        let result = try #require(try Self.results(.measurement(report)).first)
        let meaning = try #require(result["launchprof_meaning"] as? String)
        #expect(
            meaning.hasPrefix(
                "times: each successful run's time from spawn to ready (\(report.readyLabel)), not to its exit"))
        #expect(
            meaning.contains(
                "user and system: the mean CPU time of the launched process tree from spawn until it exited"))
    }

    @Test func keysAreSorted() throws {
        let text = String(
            decoding: try HyperfineReport.render(.measurement(SampleReports.uninstrumented())), as: UTF8.self)
        let keys = ["command", "exit_codes", "max", "mean", "median", "min", "stddev", "system", "times", "user"]
        let positions = keys.map { text.range(of: "\"\($0)\"")!.lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test func wordsThatNeedQuotingAreQuoted() {
        #expect(
            HyperfineReport.commandLine(["/bin/echo", "a b", "it's", "--x=1"]) == #"/bin/echo 'a b' 'it'\''s' --x=1"#)
    }
}
