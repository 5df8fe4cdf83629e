import Foundation
import LaunchAnalysis

/// One case of the defect suite: a defect of `launchprof-defects`, its size, where
/// it runs, and the rule it must get (nil: no finding above `info`, and no blocking finding).
struct DefectCase: Sendable {
    enum Place: String, Sendable { case main, background }

    var defect: String
    var milliseconds: Double
    var place: Place
    var expected: AdvisorRule?
    /// Text the finding's wait targets must hold (a path, an address, a command), when the wait is long enough to be sampled.
    var target: String?

    var name: String {
        let size = milliseconds == milliseconds.rounded() ? String(Int(milliseconds)) : String(milliseconds)
        return "\(defect)-\(size)ms-\(place.rawValue)"
    }

    func arguments(scratch: String) -> [String] {
        [defect, String(milliseconds), place.rawValue, scratch]
    }

    /// Every wait class (the rule it must get, and what must be named in it).
    static let waits: [(defect: String, rule: AdvisorRule, target: String?)] = [
        ("disk-read", .mainThreadDiskIO, "disk-read.data"),
        ("disk-write", .mainThreadDiskIO, "disk-write.journal"),
        ("major-faults", .mainThreadDiskIO, nil),
        // one port, or one per run folded: "127.0.0.1 (ports …)"
        ("network", .mainThreadNetwork, "socket to 127.0.0.1"),
        ("lock", .mainThreadLockWait, nil),
        ("sleep", .mainThreadSleep, "a sleep of"),
        ("process", .mainThreadProcessWait, "/bin/sleep"),
        ("pipe", .mainThreadIPCWait, "pipe"),
        ("fifo", .mainThreadIPCWait, "fifo.fifo"),
        ("local-socket", .mainThreadIPCWait, "local socket"),
        ("epoll", .mainThreadEventWait, nil),
        ("poll", .mainThreadEventWait, nil),
        ("eventfd", .mainThreadBlocked, "eventfd"),
    ]

    /// The suite: each wait at 2, 10 and 40 ms on the main thread and at 10 ms
    /// moved off it; CPU work over its budget (deferrable and required), inside it,
    /// and under contention for the cores.
    static let suite: [DefectCase] = {
        var cases: [DefectCase] = []
        for wait in waits {
            for size in [2.0, 10, 40] {
                cases.append(
                    DefectCase(
                        defect: wait.defect, milliseconds: size, place: .main, expected: wait.rule,
                        target: size >= 10 ? wait.target : nil))
            }
            cases.append(DefectCase(defect: wait.defect, milliseconds: 10, place: .background, expected: nil))
        }
        for size in [10.0, 45] {
            cases.append(
                DefectCase(defect: "cpu-over-budget", milliseconds: size, place: .main, expected: .deferrableCPUWork))
            cases.append(
                DefectCase(
                    defect: "required-cpu-over-budget", milliseconds: size, place: .main, expected: .slowRequiredWork))
        }
        // 120 ms of CPU is over 5 % of the 2 s budget (a warning by its share), in a launch
        // under half of it even on a busy machine (`info` by what is at stake).
        cases.append(DefectCase(defect: "cpu-inside-budget", milliseconds: 120, place: .main, expected: nil))
        // Waits shorter than the tracer's accounting granularity must not vanish: one of 1.2 ms,
        // and twenty of 0.1 ms inside one span.
        cases.append(DefectCase(defect: "sleep", milliseconds: 1.2, place: .main, expected: .mainThreadSleep))
        cases.append(DefectCase(defect: "short-sleeps", milliseconds: 2, place: .main, expected: .mainThreadSleep))
        cases.append(DefectCase(defect: "cpu-over-budget", milliseconds: 40, place: .background, expected: nil))
        cases.append(DefectCase(defect: "cpu-contention", milliseconds: 20, place: .main, expected: nil))
        return cases
    }()

    /// What the advisor said about one case.
    struct Outcome: Sendable {
        var name: String
        var expected: AdvisorRule?
        /// The rules it flagged: blocking rules at any severity (they are reported from 1 ms), others above `info`.
        var flagged: [AdvisorRule]
        var missed: Bool { expected.map { !flagged.contains($0) } ?? false }
        var wrong: [AdvisorRule] { flagged.filter { $0 != expected } }
        var targetExpected: Bool
        var targetNamed: Bool
        var shown: [String]
    }

    static let blockingRules: Set<AdvisorRule> = [
        .mainThreadDiskIO, .mainThreadNetwork, .mainThreadLockWait, .mainThreadSleep, .mainThreadBlocked,
        .mainThreadProcessWait, .mainThreadIPCWait, .mainThreadEventWait,
    ]

    func judge(_ findings: [Finding]) -> Outcome {
        let flagged = findings.filter { Self.blockingRules.contains($0.rule) || $0.severity > .info }.map(\.rule)
        let named = findings.filter { $0.rule == expected }.flatMap { finding in
            (finding.waitedOn ?? []).map(\.description) + [finding.recommendation]
        }
        return Outcome(
            name: name, expected: expected, flagged: Array(Set(flagged)).sorted { $0.rawValue < $1.rawValue },
            targetExpected: target != nil,
            targetNamed: target.map { text in named.contains { $0.contains(text) } } ?? true,
            shown: findings.map { "\($0.rule.id) \($0.severity.rawValue) \(Milliseconds.text($0.medianMs))" })
    }

    /// Precision and recall: a case's expected rule flagged is a true positive,
    /// missing a false negative; every other rule flagged a false positive.
    struct Score {
        var truePositives = 0, falsePositives = 0, falseNegatives = 0
        init(_ outcomes: [Outcome]) {
            for outcome in outcomes {
                if outcome.expected != nil { outcome.missed ? (falseNegatives += 1) : (truePositives += 1) }
                falsePositives += outcome.wrong.count
            }
        }
        var precision: Double {
            truePositives + falsePositives == 0 ? 1 : Double(truePositives) / Double(truePositives + falsePositives)
        }
        var recall: Double {
            truePositives + falseNegatives == 0 ? 1 : Double(truePositives) / Double(truePositives + falseNegatives)
        }
    }

    static func table(_ outcomes: [Outcome]) -> String {
        outcomes.map { outcome in
            let mark = outcome.missed ? "MISSED" : !outcome.wrong.isEmpty ? "WRONG " : "ok    "
            return "\(mark) \(outcome.name): expected \(outcome.expected?.id ?? "nothing above info"); findings: "
                + (outcome.shown.isEmpty ? "none" : outcome.shown.joined(separator: ", "))
        }.joined(separator: "\n")
    }
}
