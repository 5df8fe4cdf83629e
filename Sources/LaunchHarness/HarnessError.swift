import LaunchTracing

/// Why the harness could not start as asked.
public enum HarnessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `LAUNCHPROF_LAUNCH_OPTIONS` (or options JSON) had a bad key or value.
    case badLaunchOptions(key: String, value: String, expected: String)
    /// A budget file could not be read or had a bad key or value.
    case badBudgetFile(path: String, problem: String)
    /// An environment variable had a value the harness cannot use.
    case badEnvironment(name: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .badLaunchOptions(let key, let value, let expected):
            return "bad launch option '\(key)': \(value); expected \(expected)"
        case .badBudgetFile(let path, let problem):
            return "\(path): \(problem)"
        case .badEnvironment(let name, let value, let expected):
            return "\(name)=\(value): expected \(expected)"
        }
    }
}

extension LaunchBudget {
    /// Reads a budget file (`launchprof.json`). Errors name the file, the key and the value.
    public static func load(path: String) throws(HarnessError) -> LaunchBudget {
        guard let text = Platform.readTextFile(path) else {
            throw .badBudgetFile(path: path, problem: "cannot read the file")
        }
        do {
            return try LaunchBudget(json: text)
        } catch {
            throw .badBudgetFile(path: path, problem: error.description)
        }
    }
}
