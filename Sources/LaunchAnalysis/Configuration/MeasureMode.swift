/// How each launch starts.
public enum MeasureMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// A new process each time, with the files it reads already cached.
    case warm
    /// A new process each time, after the file cache was dropped (needs root).
    case cold
    /// One process; the launch hooks run again and again inside it (instrumented programs only).
    case hot
}
