/// The machine a measurement ran on.
public struct MachineEnvironment: Sendable, Codable, Equatable {
    /// The machine's name (`gethostname`).
    public var hostname: String
    /// `uname -s -r -m`.
    public var operatingSystem: String
    /// The processor's model name, from `/proc/cpuinfo` (`unknown` when it has none).
    public var cpuModel: String
    /// Processors online (`sysconf(_SC_NPROCESSORS_ONLN)`).
    public var cpuCount: Int
    /// The clock the traces used (`tsc`, `clock_gettime(CLOCK_MONOTONIC)`).
    public var clockSource: String

    /// Makes an environment from values already read from the machine.
    public init(hostname: String, operatingSystem: String, cpuModel: String, cpuCount: Int, clockSource: String) {
        self.hostname = hostname
        self.operatingSystem = operatingSystem
        self.cpuModel = cpuModel
        self.cpuCount = cpuCount
        self.clockSource = clockSource
    }
}
