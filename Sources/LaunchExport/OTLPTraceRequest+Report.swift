import LaunchAnalysis
import LaunchReports
import LaunchTracing

extension OTLPTraceRequest {
    /// The scope every export names: the instrumentation that made the spans.
    public static let scopeName = "launchprof"

    /// The spans of a measurement: one trace per launch (warm-ups included,
    /// interrupted launches left out).
    ///
    /// Each launch has a root span `launch` from its spawn (a hot launch: from
    /// where it began) to its first frame (launched into the background: the
    /// end of its hooks; an uninstrumented program: its ready condition; a
    /// failed run: its exit), a child span per phase between milestones
    /// (`loader` … `extended`; the launch hooks are the phases
    /// `willFinishLaunching` and `didFinishLaunching`), and the app's own spans
    /// nested as they ran: an outermost main-thread span under the phase it
    /// began in, an outermost span of another thread under the root. The
    /// launch's monotonic clock is mapped to Unix time once, through the run's
    /// ``WallClockAnchor`` (a report that has none is placed by its `createdAt`).
    /// Findings are events on the spans they are about. See the attribute
    /// table in the module's documentation.
    ///
    /// - Parameters:
    ///   - report: The measurement.
    ///   - serviceName: `service.name` (`OTEL_SERVICE_NAME`); the report's name when nil.
    ///   - identifiers: Where the random trace and span ids come from.
    public init(report: MeasurementReport, serviceName: String? = nil, identifiers: inout OTLPIdentifiers) {
        var builder = LaunchSpanBuilder(report: report)
        var spans: [OTLPSpan] = []
        spans.reserveCapacity(
            report.runs.reduce(0) {
                $0 + 10 + ($1.timeline.map { $0.mainThreadSpans.count + $0.otherSpans.count } ?? 0)
            })
        for run in report.runs where run.status != .interrupted {
            builder.append(run, to: &spans, identifiers: &identifiers)
        }
        self.init(
            resourceAttributes: Self.resource(of: report, serviceName: serviceName ?? report.name),
            scopeName: Self.scopeName, scopeVersion: report.toolVersion, spans: spans)
    }

    /// The resource: the program, the machine and the measurement.
    static func resource(of report: MeasurementReport, serviceName: String) -> [OTLPAttribute] {
        let environment = report.environment
        let system = environment.operatingSystem.split(separator: " ").map(String.init)
        var attributes: [OTLPAttribute] = [
            OTLPAttribute("service.name", .string(serviceName)),
            OTLPAttribute("telemetry.sdk.name", .string("launchprof")),
            OTLPAttribute("telemetry.sdk.language", .string("swift")),
            OTLPAttribute("telemetry.sdk.version", .string(report.toolVersion)),
        ]
        if let executable = report.configuration.command.first {
            attributes.append(
                OTLPAttribute("process.executable.name", .string(String(executable.split(separator: "/").last ?? ""))))
            attributes.append(OTLPAttribute("process.command_args", .strings(report.configuration.command)))
        }
        attributes += [
            OTLPAttribute("host.name", .string(environment.hostname)),
            OTLPAttribute("host.arch", .string(Self.hostArch(system.count >= 3 ? system[2] : "unknown"))),
            OTLPAttribute("os.type", .string(system.first?.lowercased() ?? "unknown")),
        ]
        if system.count >= 2 { attributes.append(OTLPAttribute("os.version", .string(system[1]))) }
        attributes += [
            OTLPAttribute("host.cpu.model.name", .string(environment.cpuModel)),
            OTLPAttribute("launchprof.host.cpu.count", .int(Int64(environment.cpuCount))),
            OTLPAttribute("launchprof.clock.source", .string(environment.clockSource)),
            OTLPAttribute("launchprof.report.name", .string(report.name)),
            OTLPAttribute("launchprof.mode", .string(report.configuration.mode.rawValue)),
            OTLPAttribute("launchprof.ready", .string(report.readyLabel)),
            OTLPAttribute("launchprof.runs", .int(Int64(report.configuration.runs))),
            OTLPAttribute("launchprof.warmup", .int(Int64(report.configuration.warmup))),
            OTLPAttribute("launchprof.outcome.status", .string(report.outcome.status.rawValue)),
        ]
        if let reason = report.configuration.launchOptions?.reason {
            attributes.append(OTLPAttribute("launchprof.launch.reason", .string(reason.rawValue)))
        }
        return attributes
    }

    /// `uname -m` in the semantic conventions' `host.arch` values.
    static func hostArch(_ machine: String) -> String {
        switch machine {
        case "x86_64", "amd64": return "amd64"
        case "aarch64", "arm64": return "arm64"
        case "i386", "i486", "i586", "i686": return "x86"
        case "armv7l", "armv6l": return "arm32"
        case "ppc64le", "ppc64": return "ppc64"
        case "s390x": return "s390x"
        default: return machine
        }
    }
}
