/// Why a report could not be read or written.
public enum ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case malformed(path: String, problem: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): return "\(path): cannot read report: \(reason)"
        case .cannotWrite(let path, let reason): return "\(path): cannot write report: \(reason)"
        case .malformed(let path, let problem): return "\(path): malformed report: \(problem)"
        }
    }
}
