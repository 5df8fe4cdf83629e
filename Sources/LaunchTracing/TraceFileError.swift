/// Why a trace file could not be written or read.
///
/// Messages are short, lowercase and name the file and, for a bad file, the
/// byte offset and what was expected there.
public enum TraceFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case cannotRead(path: String, reason: String)
    /// The file could not be created or written.
    case cannotWrite(path: String, reason: String)
    /// The bytes are not a valid trace: at `offset`, `expected` was not found.
    case invalid(path: String?, offset: Int, expected: String)
    /// The file was written by a newer, incompatible version of the format.
    case unsupportedVersion(path: String?, version: UInt16)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason):
            return "\(path): cannot read trace: \(reason)"
        case .cannotWrite(let path, let reason):
            return "\(path): cannot write trace: \(reason)"
        case .invalid(let path, let offset, let expected):
            return "\(path ?? "trace"): invalid trace at byte \(offset): expected \(expected)"
        case .unsupportedVersion(let path, let version):
            return
                "\(path ?? "trace"): unsupported trace format version \(version) (this reader knows 1 to \(TraceFormat.version))"
        }
    }

    /// The same error, naming `path`.
    func naming(_ path: String) -> TraceFileError {
        switch self {
        case .invalid(nil, let offset, let expected): return .invalid(path: path, offset: offset, expected: expected)
        case .unsupportedVersion(nil, let version): return .unsupportedVersion(path: path, version: version)
        default: return self
        }
    }

    /// The same error naming `path` in place of the path it was read by: a file
    /// read where it is now and named where it will be.
    public func renamed(_ path: String) -> TraceFileError {
        switch self {
        case .cannotRead(_, let reason): return .cannotRead(path: path, reason: reason)
        case .cannotWrite(_, let reason): return .cannotWrite(path: path, reason: reason)
        case .invalid(_, let offset, let expected): return .invalid(path: path, offset: offset, expected: expected)
        case .unsupportedVersion(_, let version): return .unsupportedVersion(path: path, version: version)
        }
    }
}
