import LaunchTracing

/// Why the harness could not start as asked.
public enum HarnessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `LAUNCHPROF_LAUNCH_OPTIONS` had a bad key or value.
    case badLaunchOptions(LaunchOptionsError)
    /// An environment variable had a value the harness cannot use.
    case badEnvironment(name: String, value: String, expected: String)

    /// One line naming the variable or option and its value.
    public var description: String {
        switch self {
        case .badLaunchOptions(let error):
            return error.description
        case .badEnvironment(let name, let value, let expected):
            return "\(name)=\(value): expected \(expected)"
        }
    }
}
