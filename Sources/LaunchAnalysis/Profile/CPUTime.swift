/// CPU time a launch used: user and system time of the launched process tree,
/// from its spawn until it ended.
///
/// Wall time is what the user waits for and drifts with the machine's load;
/// CPU time is what the machine spent, so a busy neighbour inflates it far less.
/// Both are measured in every launch (no command gates on CPU time yet).
public struct CPUTime: Sendable, Codable, Equatable {
    /// Time spent running the program's own code, nanoseconds.
    public var userNanoseconds: UInt64
    /// Time the kernel spent working for it (system calls, page faults), nanoseconds.
    public var systemNanoseconds: UInt64

    /// Makes a reading; zero by default.
    public init(userNanoseconds: UInt64 = 0, systemNanoseconds: UInt64 = 0) {
        self.userNanoseconds = userNanoseconds
        self.systemNanoseconds = systemNanoseconds
    }

    /// User plus system time, nanoseconds.
    public var totalNanoseconds: UInt64 { userNanoseconds &+ systemNanoseconds }

    /// User time, milliseconds.
    public var userMilliseconds: Double { Double(userNanoseconds) / 1e6 }
    /// System time, milliseconds.
    public var systemMilliseconds: Double { Double(systemNanoseconds) / 1e6 }
    /// User plus system time, milliseconds.
    public var totalMilliseconds: Double { Double(totalNanoseconds) / 1e6 }

    /// The two readings added, as for a process and the children it reaped.
    public static func + (lhs: CPUTime, rhs: CPUTime) -> CPUTime {
        CPUTime(
            userNanoseconds: lhs.userNanoseconds &+ rhs.userNanoseconds,
            systemNanoseconds: lhs.systemNanoseconds &+ rhs.systemNanoseconds)
    }
}
