/// Why a report could not be read, rendered or written.
public enum ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file at `path` could not be read; `reason` is the system's explanation.
    case cannotRead(path: String, reason: String)
    /// The file at `path` could not be written; `reason` is the system's explanation.
    case cannotWrite(path: String, reason: String)
    /// The file at `path` is not a report this version can read: `problem` says
    /// what is wrong (not JSON, the wrong `kind`, a newer `schemaVersion`, a missing key…).
    case malformed(path: String, problem: String)
    /// A report could not be encoded (a value JSON cannot hold).
    case cannotEncode(reason: String)
    /// A `--format` value that names no format this version writes.
    case badFormat(String, problem: String)

    /// `<path>: <what failed>: <why>`, on one line.
    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): return "\(path): cannot read report: \(reason)"
        case .cannotWrite(let path, let reason): return "\(path): cannot write report: \(reason)"
        case .malformed(let path, let problem): return "\(path): malformed report: \(problem)"
        case .cannotEncode(let reason): return "cannot encode report: \(reason)"
        case .badFormat(let text, let problem): return "bad format '\(text)' in --format: \(problem)"
        }
    }
}
