import LaunchTracing

/// The one place a measurement's budget is decided: a budget file (given with
/// `--budget`, or `./launchprof.json` when present) comes first, else the budget
/// the app declared in code (recorded in its trace); then `--budget-ms` replaces
/// the time-to-first-frame limit of whichever applied (Apple's 400 ms figures
/// when it is the only one). With none of them the program is measured and
/// reported, and no budget is checked (``BudgetProvenance/Origin/none``): Apple's
/// 400 ms is an app's first frame, and a server's time to ready is not one.
///
/// A file that leaves out hook, span or required-work entries takes them from
/// the app, which knows its own work.
///
/// ```swift
/// let resolution = try BudgetResolution(filePath: nil, timeToFirstFrameMs: 300)
/// let (budget, provenance) = resolution.resolve(appBudget: trace.appBudget)
/// ```
public struct BudgetResolution: Sendable, Equatable {
    /// The budget file looked for in the current directory when none is given.
    public static let defaultFileName = "launchprof.json"

    /// A budget file and where it was read from.
    public struct File: Sendable, Equatable {
        /// The path it was read from, as given.
        public var path: String
        /// What it holds.
        public var budget: LaunchBudget

        /// Makes a file record from a budget already read.
        public init(path: String, budget: LaunchBudget) {
            self.path = path
            self.budget = budget
        }
    }

    /// The budget file that applies, if any.
    public var file: File?
    /// `--budget-ms`: the time-to-first-frame limit, replacing the one that applied.
    public var timeToFirstFrameMs: Double?

    /// A resolution from values already read.
    public init(file: File? = nil, timeToFirstFrameMs: Double? = nil) {
        self.file = file
        self.timeToFirstFrameMs = timeToFirstFrameMs
    }

    /// Reads the budget file `filePath`, or ``defaultFileName`` when it is nil and
    /// such a file exists.
    ///
    /// - Throws: ``LaunchTracing/LaunchBudgetError/badFile(path:problem:)`` naming the
    ///   file and what is wrong with it.
    public init(filePath: String?, timeToFirstFrameMs: Double?) throws(LaunchBudgetError) {
        var file: File?
        if let filePath {
            file = File(path: filePath, budget: try LaunchBudget(contentsOf: filePath))
        } else if let budget = try LaunchBudget.loadIfPresent(path: Self.defaultFileName) {
            file = File(path: Self.defaultFileName, budget: budget)
        }
        self.init(file: file, timeToFirstFrameMs: timeToFirstFrameMs)
    }

    /// The budget in effect and where it came from, given the app's own budget
    /// in code (from a run's trace) when there is one.
    public func resolve(appBudget: LaunchBudget?) -> (budget: LaunchBudget, provenance: BudgetProvenance) {
        var budget: LaunchBudget
        var provenance: BudgetProvenance
        if let file {
            budget = file.budget
            provenance = BudgetProvenance(origin: .file(path: file.path))
            if let appBudget {
                budget.hooksMs.merge(appBudget.hooksMs) { fromFile, _ in fromFile }
                budget.spansMs.merge(appBudget.spansMs) { fromFile, _ in fromFile }
                if budget.requiredForFirstFrame.isEmpty {
                    budget.requiredForFirstFrame = appBudget.requiredForFirstFrame
                }
                provenance.appEntriesMerged = true
            }
        } else if let appBudget {
            budget = appBudget
            provenance = BudgetProvenance(origin: .app)
        } else {
            budget = .default
            provenance = BudgetProvenance(origin: timeToFirstFrameMs == nil ? .none : .default)
        }
        if let timeToFirstFrameMs {
            budget.timeToFirstFrameMs = timeToFirstFrameMs
            provenance.timeToFirstFrameFromCommandLine = true
        }
        return (budget, provenance)
    }
}

/// Where a measurement's budget came from (see ``BudgetResolution``).
public struct BudgetProvenance: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The budget the limits were taken from.
    public enum Origin: Sendable, Equatable {
        /// A budget file.
        case file(path: String)
        /// The app's budget in code, recorded in its trace.
        case app
        /// Apple's figure: 400 ms to the first frame, 200 ms in the background
        /// (with `--budget-ms` alone; reports written before ``none`` was were judged by it).
        case `default`
        /// No budget from any source (no file, none in the app's code, no
        /// `--budget-ms`): the launches are measured and reported, nothing is checked.
        case none
    }

    /// The budget the limits were taken from.
    public var origin: Origin
    /// True when a file's missing hook, span and required-work entries were taken from the app.
    public var appEntriesMerged = false
    /// True when `--budget-ms` replaced the time-to-first-frame limit.
    public var timeToFirstFrameFromCommandLine = false
    /// A schema-1 report's provenance, which was only text.
    public var recordedText: String?

    /// Makes a provenance.
    public init(origin: Origin, appEntriesMerged: Bool = false, timeToFirstFrameFromCommandLine: Bool = false) {
        self.origin = origin
        self.appEntriesMerged = appEntriesMerged
        self.timeToFirstFrameFromCommandLine = timeToFirstFrameFromCommandLine
    }

    /// True when no budget came from any source: the measurement is reported and nothing is checked.
    public var isNone: Bool { origin == .none }

    /// One line for people: `launchprof.json (with the app's own … entries …), time to first frame from --budget-ms`.
    public var description: String {
        if let recordedText { return recordedText }
        var text: String
        switch origin {
        case .file(let path): text = path
        case .app: text = "the app's budget in code (recorded in its trace)"
        case .default: text = "default (400 ms, Apple's figure)"
        case .none: text = "none (no budget file, none in the app's code, no --budget-ms): measured, not checked"
        }
        if appEntriesMerged {
            text += " (with the app's own hook, span and required-work entries where the file has none)"
        }
        if timeToFirstFrameFromCommandLine { text += ", time to first frame from --budget-ms" }
        return text
    }

    private enum CodingKeys: String, CodingKey {
        case origin, path, appEntriesMerged, timeToFirstFrameFromCommandLine, description
    }

    /// Encodes `{"origin": "file", "path": "launchprof.json", "appEntriesMerged": true, …, "description": "…"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch origin {
        case .file(let path):
            try container.encode("file", forKey: .origin)
            try container.encode(path, forKey: .path)
        case .app: try container.encode("app", forKey: .origin)
        case .default: try container.encode("default", forKey: .origin)
        case .none: try container.encode("none", forKey: .origin)
        }
        try container.encode(appEntriesMerged, forKey: .appEntriesMerged)
        try container.encode(timeToFirstFrameFromCommandLine, forKey: .timeToFirstFrameFromCommandLine)
        try container.encode(description, forKey: .description)
    }

    /// Decodes the object form, or a schema-1 report's text.
    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self.init(
                origin: text.hasPrefix("default")
                    ? .default
                    : text.hasPrefix("none (") ? .none : text.hasPrefix("the app's") ? .app : .file(path: text))
            if text != description { recordedText = text }
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let origin: Origin
        switch try container.decode(String.self, forKey: .origin) {
        case "file": origin = .file(path: try container.decode(String.self, forKey: .path))
        case "app": origin = .app
        case "default": origin = .default
        case "none": origin = .none
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .origin, in: container, debugDescription: "unknown budget origin '\(other)'")
        }
        self.init(
            origin: origin,
            appEntriesMerged: try container.decodeIfPresent(Bool.self, forKey: .appEntriesMerged) ?? false,
            timeToFirstFrameFromCommandLine: try container.decodeIfPresent(
                Bool.self, forKey: .timeToFirstFrameFromCommandLine) ?? false)
        // A schema-1 report's text, carried over when it was written again.
        if let text = try container.decodeIfPresent(String.self, forKey: .description), text != description {
            recordedText = text
        }
    }
}
