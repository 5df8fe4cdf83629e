/// What a blocked thread was waiting on, named as far as the system can tell:
/// the file behind a descriptor, a socket's peer, a child's command, a sleep's length.
///
/// The sampler resolves it once per wait (not at every sample), from the
/// arguments of the system call the thread is blocked in.
///
/// ```swift
/// let target = WaitTarget(kind: .file, name: "/var/lib/app/catalog.json")
/// print(target.description)   // read of /var/lib/app/catalog.json
/// ```
public struct WaitTarget: Sendable, Hashable, Codable {
    /// What ``name`` names.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A file or block device, by path.
        case file
        /// A network socket, by its peer's address (`127.0.0.1:8080`, `[::1]:443`).
        case socket
        /// A local (Unix-domain) socket, by its peer's path, or `unnamed` for a socket pair.
        case localSocket = "local-socket"
        /// A pipe: `pipe`, or the path of a named pipe (FIFO).
        case pipe
        /// A child process, by its command line.
        case process
        /// A sleep, by its requested length (`5 ms`).
        case sleep
        /// Another kind of descriptor (`eventfd`, `timerfd`, a terminal…).
        case descriptor

        /// True when ``WaitTarget/name`` may hold a file system path of the measured program.
        public var namesPaths: Bool {
            switch self {
            case .file, .localSocket, .pipe, .process: return true
            case .socket, .sleep, .descriptor: return false
            }
        }

        /// The byte the trace file stores it as.
        var code: UInt8 {
            UInt8(Self.allCases.firstIndex(of: self)!)
        }

        init?(code: UInt8) {
            guard Int(code) < Self.allCases.count else { return nil }
            self = Self.allCases[Int(code)]
        }
    }

    public var kind: Kind
    /// The path, address, command or duration.
    public var name: String

    public init(kind: Kind, name: String) {
        self.kind = kind
        self.name = name
    }

    /// How a sentence names it: `read of /path`, `socket to 127.0.0.1:80`, `child process "sh -c …"`, `sleep of 5 ms`.
    public var description: String {
        switch kind {
        case .file: return name
        case .socket: return "socket to \(name)"
        case .localSocket: return name == "unnamed" ? "an unnamed local socket" : "local socket \(name)"
        case .pipe: return name == "pipe" ? "a pipe" : "named pipe \(name)"
        case .process: return "child process `\(name)`"
        case .sleep: return "a sleep of \(name)"
        case .descriptor: return name
        }
    }

    /// The same target with every path in its name cut to its last component
    /// (`/home/ana/app/catalog.json` → `catalog.json`), for reports that must not
    /// show the measured program's paths.
    public var redacted: WaitTarget {
        guard kind.namesPaths else { return self }
        return WaitTarget(kind: kind, name: WaitTarget.redactingPaths(in: name))
    }

    /// `text` with every word that holds a `/` cut to its last path component.
    public static func redactingPaths(in text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { word -> Substring in
            guard word.contains("/") else { return word }
            let trimmed = word.hasSuffix("/") ? word.dropLast() : word
            return trimmed.split(separator: "/").last ?? trimmed
        }.joined(separator: " ")
    }
}
