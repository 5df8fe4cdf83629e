/// The machine a measurement ran on.
public struct MachineEnvironment: Sendable, Codable, Equatable {
    public var hostname: String
    /// `uname -s -r -m`.
    public var operatingSystem: String
    public var cpuModel: String
    public var cpuCount: Int
    /// The clock the traces used (`tsc`, `clock_gettime(CLOCK_MONOTONIC)`).
    public var clockSource: String

    public init(hostname: String, operatingSystem: String, cpuModel: String, cpuCount: Int, clockSource: String) {
        self.hostname = hostname
        self.operatingSystem = operatingSystem
        self.cpuModel = cpuModel
        self.cpuCount = cpuCount
        self.clockSource = clockSource
    }
}
