// A run's problem as the JSON report holds it, beside the prose `problem`:
// `{"kind": "failedExit", "exitCode": 3, "stderrLine": "no config found"}`, one
// stable `kind` per ``LaunchDiagnosis`` case and its values as fields.

extension LaunchDiagnosis {
    /// The stable code of each case, as `kind` spells it in JSON.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case exitedBeforeReady, exitedWithoutAnnouncing, stopped, failedExit, crashed, timedOut, invalidTrace
        case backgroundDrawsNoFrame, noFirstFrame, neverFullyDrawn, hotModeNeedsHooks, hotLaunchesNotRun, countsMissing
    }

    /// This diagnosis's code.
    public var kind: Kind {
        switch self {
        case .exitedBeforeReady: return .exitedBeforeReady
        case .exitedWithoutAnnouncing: return .exitedWithoutAnnouncing
        case .stopped: return .stopped
        case .failedExit: return .failedExit
        case .crashed: return .crashed
        case .timedOut: return .timedOut
        case .invalidTrace: return .invalidTrace
        case .backgroundDrawsNoFrame: return .backgroundDrawsNoFrame
        case .noFirstFrame: return .noFirstFrame
        case .neverFullyDrawn: return .neverFullyDrawn
        case .hotModeNeedsHooks: return .hotModeNeedsHooks
        case .hotLaunchesNotRun: return .hotLaunchesNotRun
        case .countsMissing: return .countsMissing
        }
    }
}

extension LaunchProblem {
    enum CodingKeys: String, CodingKey {
        case kind, ready, exitCode, signal, signalName, seconds, silentStdout, reason, launches, stderrLine, counted
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys) throws -> T { try container.decode(T.self, forKey: key) }
        let diagnosis: LaunchDiagnosis
        switch try container.decode(LaunchDiagnosis.Kind.self, forKey: .kind) {
        case .exitedBeforeReady: diagnosis = .exitedBeforeReady(try value(.ready))
        case .exitedWithoutAnnouncing: diagnosis = .exitedWithoutAnnouncing(try value(.ready))
        case .stopped: diagnosis = .stopped
        case .failedExit: diagnosis = .failedExit(code: try value(.exitCode))
        case .crashed:
            diagnosis = .crashed(
                signal: try value(.signal), signalName: try container.decodeIfPresent(String.self, forKey: .signalName))
        case .timedOut:
            diagnosis = .timedOut(
                seconds: try value(.seconds),
                silentStdout: try container.decodeIfPresent(Bool.self, forKey: .silentStdout) ?? false)
        case .invalidTrace: diagnosis = .invalidTrace(reason: try value(.reason))
        case .backgroundDrawsNoFrame: diagnosis = .backgroundDrawsNoFrame
        case .noFirstFrame: diagnosis = .noFirstFrame
        case .neverFullyDrawn: diagnosis = .neverFullyDrawn
        case .hotModeNeedsHooks: diagnosis = .hotModeNeedsHooks
        case .hotLaunchesNotRun: diagnosis = .hotLaunchesNotRun(launches: try value(.launches))
        case .countsMissing: diagnosis = .countsMissing(reason: try value(.reason))
        }
        self.init(
            diagnosis, stderrLine: try container.decodeIfPresent(String.self, forKey: .stderrLine),
            isCounted: try container.decodeIfPresent(Bool.self, forKey: .counted) ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(diagnosis.kind, forKey: .kind)
        switch diagnosis {
        case .exitedBeforeReady(let ready), .exitedWithoutAnnouncing(let ready):
            try container.encode(ready, forKey: .ready)
        case .failedExit(let code): try container.encode(code, forKey: .exitCode)
        case .crashed(let signal, let name):
            try container.encode(signal, forKey: .signal)
            try container.encodeIfPresent(name, forKey: .signalName)
        case .timedOut(let seconds, let silentStdout):
            try container.encode(seconds, forKey: .seconds)
            if silentStdout { try container.encode(true, forKey: .silentStdout) }
        case .invalidTrace(let reason), .countsMissing(let reason): try container.encode(reason, forKey: .reason)
        case .hotLaunchesNotRun(let launches): try container.encode(launches, forKey: .launches)
        case .stopped, .backgroundDrawsNoFrame, .noFirstFrame, .neverFullyDrawn, .hotModeNeedsHooks: break
        }
        try container.encodeIfPresent(stderrLine, forKey: .stderrLine)
        if isCounted { try container.encode(true, forKey: .counted) }
    }

    /// This problem with `transform` applied to the text it carries from outside
    /// launchprof (a reason, the stderr line, a ready condition's path or pattern): paths moved
    /// or redacted as the run's prose is.
    public func mappingText(_ transform: (String) -> String) -> LaunchProblem {
        var problem = self
        problem.stderrLine = stderrLine.map(transform)
        switch diagnosis {
        case .invalidTrace(let reason): problem.diagnosis = .invalidTrace(reason: transform(reason))
        case .countsMissing(let reason): problem.diagnosis = .countsMissing(reason: transform(reason))
        case .exitedBeforeReady(let ready): problem.diagnosis = .exitedBeforeReady(ready.mappingText(transform))
        case .exitedWithoutAnnouncing(let ready):
            problem.diagnosis = .exitedWithoutAnnouncing(ready.mappingText(transform))
        default: break
        }
        return problem
    }
}
