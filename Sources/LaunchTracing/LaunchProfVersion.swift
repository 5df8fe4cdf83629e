/// The version of LaunchProf: its libraries, trace format writer and command.
public enum LaunchProfVersion {
    /// Semantic version, such as `0.1.0`.
    public static let string = "0.1.0"
}
