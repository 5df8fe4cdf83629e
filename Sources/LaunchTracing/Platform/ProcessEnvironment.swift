// This process's environment variables.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("Unsupported Platform")
#endif

/// This process's environment, read from the C library's copy.
///
/// Reads `getenv` / `environ` each time: nothing is cached, so a variable set
/// with `setenv` is seen at once. Not safe against a concurrent `setenv`
/// (neither is the C library).
///
/// ```swift
/// let path = ProcessEnvironment.value("PATH") ?? "/usr/bin:/bin"
/// ```
package enum ProcessEnvironment {
    /// One variable's value, or nil when it is not set (`getenv`).
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Every variable as a `NAME=value` entry, in the environment's order (`environ`).
    package static var entries: [String] {
        var entries: [String] = []
        #if canImport(Darwin)
            guard var cursor = _NSGetEnviron().pointee else { return [] }
        #else
            var cursor = environ
        #endif
        while let entry = cursor.pointee {
            entries.append(String(cString: entry))
            cursor += 1
        }
        return entries
    }
}
