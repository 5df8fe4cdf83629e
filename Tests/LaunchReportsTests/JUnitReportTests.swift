import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The JUnit XML, parsed back with `XMLParser` and checked against the report
/// it was rendered from.
@Suite("JUnit report")
struct JUnitReportTests {
    /// An element as parsed: its name, attributes, text and children.
    final class Element {
        let name: String
        let attributes: [String: String]
        var text = ""
        var children: [Element] = []

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        func all(_ name: String) -> [Element] { children.filter { $0.name == name } }
        func first(_ name: String) -> Element? { children.first { $0.name == name } }
    }

    final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [Element] = [Element(name: "#document", attributes: [:])]

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let element = Element(name: name, attributes: attributes)
            stack.last!.children.append(element)
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last!.text += string
        }
    }

    /// The `<testsuites>` element of `xml`, which must parse.
    static func parse(_ xml: String) throws -> Element {
        let parser = XMLParser(data: Data(xml.utf8))
        let builder = TreeBuilder()
        parser.delegate = builder
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return try #require(builder.stack.first?.first("testsuites"))
    }

    @Test func eachBudgetCheckIsATestCaseThatFailsWhenOverBudget() throws {
        let report = try SampleReports.sample()
        let root = try Self.parse(JUnitReport.render(.measurement(report)))
        let suite = try #require(root.first("testsuite"))
        #expect(suite.attributes["name"] == "launchprof measure — sample-naive")

        let checks = report.profile.verdict.checks
        let budgetCases = suite.all("testcase").filter { $0.attributes["classname"] == "launchprof.budget" }
        #expect(budgetCases.count == checks.count)
        #expect(budgetCases.map { $0.attributes["name"] } == checks.map { $0.subject.description })
        #expect(checks.filter { !$0.passed }.count == 2)
        for (test, check) in zip(budgetCases, checks) {
            let failure = test.first("failure")
            #expect((failure == nil) == check.passed)
            if let failure {
                // The failure names the top finding with a call site, and where it is.
                let top = try #require(report.profile.findings.first { $0.file != nil })
                #expect(
                    failure.attributes["message"]
                        == "\(check.subject) \(Milliseconds.text(check.medianMs)) > \(Milliseconds.text(check.budgetMs)) (median)"
                        + "; top finding: \(top.rule.id) \(top.span) at \(SourceSite.text(file: top.file!, line: top.line!)), "
                        + "\(ms(top.medianMs)) CPU"
                )
                #expect(failure.attributes["type"] == "over-budget")
            }
            // A total carries its time; a hook's nests in it and carries none.
            if case .phase(let phase) = check.subject, phase.isTotal {
                #expect(Double(test.attributes["time"] ?? "").map { abs($0 - check.medianMs / 1000) < 1e-6 } == true)
            } else {
                #expect(test.attributes["time"] == nil)
            }
        }
        let message = budgetCases[1].first("failure")?.attributes["message"]
        #expect(
            message
                == "didFinishLaunching 783 ms > 150 ms (median); top finding: deferrable-cpu-work BuildSearchIndex at SearchIndex.swift:9, 436 ms CPU"
        )

        // The runs case is there, and passes.
        let runs = try #require(suite.all("testcase").first { $0.attributes["name"] == "runs" })
        #expect(runs.children.isEmpty)
        let counts = (suite.attributes["tests"], suite.attributes["failures"], suite.attributes["errors"])
        #expect(counts == ("\(checks.count + 1)", "2", "0"))
        #expect(root.attributes["failures"] == "2")
    }

    @Test func failedRunsAreAnErrorOnTheRunsCase() throws {
        let report = try SampleReports.uninstrumented([1.2, nil, 1.4])
        #expect(report.outcome.status == .failedRuns)
        let suite = try #require(try Self.parse(JUnitReport.render(.measurement(report))).first("testsuite"))
        let runs = try #require(suite.all("testcase").first { $0.attributes["name"] == "runs" })
        let error = try #require(runs.first("error"))
        #expect(error.attributes["type"] == "failed-runs")
        #expect(error.attributes["message"] == report.outcome.reason)
        #expect(error.text == "run 2: exited with status 3")
        #expect(suite.attributes["errors"] == "1")
        #expect(
            suite.all("testcase").filter { $0.attributes["classname"] == "launchprof.budget" }.count
                == report.profile.verdict.checks.count)
    }

    @Test func ignoredFailedRunsPassTheRunsCaseAndAreListed() throws {
        let report = try SampleReports.uninstrumented([1.2, nil, 1.4], ignoreFailures: true)
        #expect(report.outcome.status == .pass)
        let suite = try #require(try Self.parse(JUnitReport.render(.measurement(report))).first("testsuite"))
        let runs = try #require(suite.all("testcase").first { $0.attributes["name"] == "runs" })
        #expect(runs.first("error") == nil)
        #expect(runs.first("system-out")?.text.contains("run 2: exited with status 3") == true)
    }

    @Test func aComparisonHasACasePerGatedMetric() throws {
        let regression = SampleReports.comparison(
            try SampleReports.uninstrumented(SampleReports.around(100)),
            try SampleReports.uninstrumented(SampleReports.around(130)))
        #expect(regression.outcome.status == .regression)
        let suite = try #require(try Self.parse(JUnitReport.render(.comparison(regression))).first("testsuite"))
        #expect(suite.attributes["name"] == "launchprof compare — pr-42")
        let gated = regression.metrics.filter(\.gated)
        let metricCases = suite.all("testcase").filter { $0.attributes["classname"] == "launchprof.compare" }
        #expect(metricCases.map { $0.attributes["name"] } == gated.map(\.name))
        let failure = try #require(metricCases.first?.first("failure"))
        #expect(failure.attributes["type"] == "regression")
        #expect(failure.attributes["message"] == gated[0].summary)

        let inconclusive = SampleReports.comparison(
            try SampleReports.uninstrumented([100, 140, 90, 120, 80, 130]),
            try SampleReports.uninstrumented([110, 150, 95, 125, 85, 140]))
        #expect(inconclusive.outcome.status == .inconclusive)
        // Exit 3 fails the CI step, so the test report fails too…
        #expect(inconclusive.outcome.exitCode.rawValue == 3)
        let other = try #require(try Self.parse(JUnitReport.render(.comparison(inconclusive))).first("testsuite"))
        let failed = other.all("testcase").first?.first("failure")
        #expect(failed?.attributes["type"] == "inconclusive")
        #expect(failed?.attributes["message"]?.hasPrefix("inconclusive: ") == true)
        #expect(other.attributes["failures"] == "1")
        #expect(other.attributes["skipped"] == "0")
        // …unless the team treats inconclusive as a pass.
        let options = RenderOptions(inconclusiveIsPass: true)
        let passing = try #require(
            try Self.parse(
                String(
                    decoding: try ReportFormat.junit.render(.comparison(inconclusive), options: options), as: UTF8.self)
            ).first("testsuite"))
        let skipped = passing.all("testcase").first?.first("skipped")
        #expect(skipped?.attributes["message"]?.hasPrefix("inconclusive: ") == true)
        #expect(passing.attributes["skipped"] == "1")
        #expect(passing.attributes["failures"] == "0")
    }

    @Test func theSuitesDurationIsTheLaunchNotTheSumOfNestedChecks() throws {
        let report = try SampleReports.sample()
        let suite = try #require(try Self.parse(JUnitReport.render(.measurement(report))).first("testsuite"))
        let total = try #require(report.profile.statistics(.timeToFirstFrame)?.summary.median)
        #expect(suite.attributes["time"] == String(format: "%.6f", total / 1000))
        let times = suite.all("testcase").compactMap { $0.attributes["time"].flatMap(Double.init) }
        // The hooks' checks nest in the total: only the total carries a time, so the cases add up to the suite.
        #expect(abs(times.reduce(0, +) - total / 1000) < 1e-6)
        let hook = try #require(suite.all("testcase").first { $0.attributes["name"] == "didFinishLaunching" })
        #expect(hook.attributes["time"] == nil)
    }

    @Test func aBudgetSpanNoRunRecordedIsShownWithItsWarning() throws {
        let sample = try SampleReports.sample()
        var configuration = sample.configuration
        // The typo's warning names the real span ("did you mean 'DecodeCatalog'?"), whose
        // own 1 ms budget is exceeded: that one stays a failure.
        configuration.budget.spansMs = ["DecodeCatalgo": 50, "DecodeCatalog": 1]
        let report = MeasurementReport(
            name: sample.name, createdAt: sample.createdAt, environment: sample.environment,
            configuration: configuration, runs: sample.runs)
        let warning = try #require(report.profile.warnings?.first { $0.contains("DecodeCatalgo") })
        #expect(warning.contains("'DecodeCatalog'"))
        let suite = try #require(try Self.parse(JUnitReport.render(.measurement(report))).first("testsuite"))
        let typo = try #require(
            suite.all("testcase").first { $0.attributes["name"]?.contains("DecodeCatalgo") == true })
        #expect(typo.first("skipped")?.attributes["message"] == warning)
        #expect(typo.first("skipped")?.attributes["type"] == "not-recorded")
        let real = try #require(suite.all("testcase").first { $0.attributes["name"] == "span:DecodeCatalog" })
        #expect(real.first("failure") != nil && real.first("skipped") == nil)
        // Only budget-name warnings become cases of their own (not open spans or missing traces).
        let extra = suite.all("testcase").filter { $0.attributes["name"] == "budget warning" }
        #expect(extra.allSatisfy { $0.first("skipped")?.attributes["message"]?.hasPrefix("the budget's ") == true })
    }

    @Test func everythingIsEscaped() throws {
        let name = "a<b>&\"c\" 'd'\u{01}\nline"
        let report = try SampleReports.uninstrumented([1.0], name: name)
        let xml = JUnitReport.render(.measurement(report))
        let suite = try #require(try Self.parse(xml).first("testsuite"))
        #expect(suite.attributes["name"] == "launchprof measure — a<b>&\"c\" 'd'\u{FFFD}\nline")
    }
}
