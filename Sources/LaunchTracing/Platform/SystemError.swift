// A failed system call's error number and the C library's message for it.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("Unsupported Platform")
#endif

/// A failed system call's `errno`, with the C library's message for it.
///
/// Its description is the C library's message (`strerror`) with a lowercase
/// first letter, as LaunchProf's messages are: "no such file or directory".
///
/// ```swift
/// guard mkdir(path, 0o755) == 0 else { throw SystemError.current }
/// ```
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C error number, such as `ENOENT`.
    package let code: Int32

    package init(code: Int32) {
        self.code = code
    }

    /// `EEXIST`: something is already there.
    package static let alreadyExists = EEXIST
    /// `ENOTEMPTY`: a directory that is not empty.
    package static let notEmpty = ENOTEMPTY
    /// `ENOTDIR`: not a directory.
    package static let notADirectory = ENOTDIR
    /// `EINVAL`: an argument (a flag, here) the call does not take.
    package static let invalidArgument = EINVAL

    /// The calling thread's `errno` now: read it before any other system call.
    package static var current: SystemError { SystemError(code: errno) }

    /// The C library's message as it writes it (`strerror`): "No such file or directory".
    package var systemMessage: String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// The C library's message with a lowercase first letter: "no such file or directory".
    package var description: String {
        let message = systemMessage
        return message.prefix(1).lowercased() + message.dropFirst()
    }
}
