/// The machine a measurement ran on.
///
/// ``machine`` is the key a fleet comparison groups launches by: a name the
/// user gives (`--machine`, `LAUNCHPROF_MACHINE`: a runner label, a device
/// model), or by default one made from the CPU model, the core count and the
/// operating system's name and architecture — never the host name, which a CI
/// runner changes every job, and not the kernel release, which an image update
/// changes without making another kind of machine. A report written before the
/// key existed gets the default key from its recorded environment.
///
/// ```swift
/// let environment = MachineEnvironment(
///     hostname: "runner-7f3a", operatingSystem: "Linux 6.1.0-18-amd64 x86_64",
///     cpuModel: "AMD EPYC 7763 64-Core Processor", cpuCount: 4, clockSource: "tsc")
/// environment.machine  // "AMD EPYC 7763 64-Core Processor ×4, Linux x86_64"
/// ```
public struct MachineEnvironment: Sendable, Equatable {
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
    /// The key launches are grouped by across machines: the name given, or ``defaultMachine``.
    public var machine: String

    /// Makes an environment from values already read from the machine; `machine`
    /// nil (or blank) takes the default key made from them.
    public init(
        hostname: String, operatingSystem: String, cpuModel: String, cpuCount: Int, clockSource: String,
        machine: String? = nil
    ) {
        self.hostname = hostname
        self.operatingSystem = operatingSystem
        self.cpuModel = cpuModel
        self.cpuCount = cpuCount
        self.clockSource = clockSource
        self.machine = ""
        self.machine = Self.key(machine) ?? defaultMachine
    }

    /// The key made from the CPU model, the core count, and the operating
    /// system's name and architecture (the first and last word of ``operatingSystem``):
    /// `AMD EPYC 7763 64-Core Processor ×4, Linux x86_64`.
    public var defaultMachine: String {
        let words = operatingSystem.split(separator: " ")
        let system = words.count > 2 ? "\(words[0]) \(words[words.count - 1])" : operatingSystem
        return "\(cpuModel) ×\(cpuCount), \(system)"
    }

    /// What is wrong with `name` as a machine key (`--machine`, `LAUNCHPROF_MACHINE`),
    /// or nil when it can be one. A key is printed in every format and on the
    /// terminal: a control character (``ControlCharacters/isEscaped(_:)``) is refused.
    public static func problem(with name: String) -> String? {
        if key(name) == nil { return "expected a machine name, not a blank one" }
        if name.unicodeScalars.contains(where: ControlCharacters.isEscaped) {
            return "a machine name has no control characters, not '\(ControlCharacters.escaped(name))'"
        }
        return nil
    }

    /// A given machine name, trimmed; nil when it is nil or blank.
    public static func key(_ name: String?) -> String? {
        guard let name else { return nil }
        let trimmed = name.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}

extension MachineEnvironment: Codable {
    private enum CodingKeys: String, CodingKey {
        case hostname, operatingSystem, cpuModel, cpuCount, clockSource, machine
    }

    /// Decodes an environment; one written before the machine key existed gets ``defaultMachine``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            hostname: try container.decode(String.self, forKey: .hostname),
            operatingSystem: try container.decode(String.self, forKey: .operatingSystem),
            cpuModel: try container.decode(String.self, forKey: .cpuModel),
            cpuCount: try container.decode(Int.self, forKey: .cpuCount),
            clockSource: try container.decode(String.self, forKey: .clockSource),
            machine: try container.decodeIfPresent(String.self, forKey: .machine))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hostname, forKey: .hostname)
        try container.encode(operatingSystem, forKey: .operatingSystem)
        try container.encode(cpuModel, forKey: .cpuModel)
        try container.encode(cpuCount, forKey: .cpuCount)
        try container.encode(clockSource, forKey: .clockSource)
        try container.encode(machine, forKey: .machine)
    }
}

extension MachineEnvironment {
    /// This machine's name (`gethostname`), if it can be read: what a report
    /// records, and what `--redact-paths` takes out of it.
    package static var hostName: String? { Platform.hostName }
}
