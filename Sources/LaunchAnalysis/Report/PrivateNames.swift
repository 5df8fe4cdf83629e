import LaunchTracing

/// What a report redacted with `--redact-paths` must not show: the home
/// directory, the working directory, the user name and the host name.
///
/// Text from the measured program and from the command line (a failed run's
/// stderr, the program's path, `--output`, the runs' files) is passed through
/// ``scrub(_:)``: every word that holds a path is cut to its last component (which
/// leaves no directory: they all hold a `/`), and what is left of the user and host
/// names is replaced by `<user>` and `<host>`.
/// A run's files keep the part of their path from the `<name>.runs` folder on,
/// so they can still be told apart.
///
/// ```swift
/// let names = PrivateNames(userName: "alice", hostNames: ["alice-laptop"])
/// names.scrub("cannot open /home/alice/app/secret.db: denied")  // "cannot open secret.db: denied"
/// ```
public struct PrivateNames: Sendable, Equatable {
    /// `$USER` (or `$LOGNAME`).
    public var userName: String?
    /// The machine's names: this one's, and those a report was made on.
    public var hostNames: [String]

    /// Makes the set of names; nil or too short to be told apart from other text (under 3 characters, or `/`) are left out.
    public init(userName: String? = nil, hostNames: [String] = []) {
        func usable(_ name: String?) -> String? {
            guard let name else { return nil }
            let trimmed = name.hasSuffix("/") && name.count > 1 ? String(name.dropLast()) : name
            return trimmed.count >= 3 && trimmed != "/" ? trimmed : nil
        }
        self.userName = usable(userName)
        self.hostNames = hostNames.compactMap(usable).sorted { $0.count > $1.count }
    }

    /// This process's: `$USER` or `$LOGNAME`, and the host name.
    public static var ofThisProcess: PrivateNames {
        PrivateNames(
            userName: ProcessEnvironment.value("USER") ?? ProcessEnvironment.value("LOGNAME"),
            hostNames: MachineEnvironment.hostName.map { [$0] } ?? [])
    }

    /// What replaces a host name.
    public static let hostPlaceholder = "<host>"

    /// `text` with every word holding a path cut to its last component (a word
    /// `NAME=/a/b` keeps `NAME=`, and `(file:/a/b` keeps `(file:`: what comes before the
    /// path's first `/` up to a delimiter), then the names replaced.
    public func scrub(_ text: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard let slash = word.firstIndex(of: "/") else { return String(word) }
            let prefix = word[..<slash].lastIndex { "=:('\"[<".contains($0) }.map { word[...$0] } ?? ""
            return prefix + PathRedaction.lastComponent(String(word))
        }
        return replacingNames(in: words.joined(separator: " "))
    }

    /// A path kept from its `<name>.runs` folder on (a run's stdout, stderr or trace), else cut to its last component.
    public func scrubRunPath(_ path: String) -> String {
        let parts = path.split(separator: "/")
        if let runs = parts.lastIndex(where: { $0.hasSuffix(".runs") || $0.contains(".runs.tmp-") }) {
            return replacingNames(in: parts[runs...].joined(separator: "/"))
        }
        return scrub(path)
    }

    /// `text` with the host names, then the user name, replaced.
    func replacingNames(in text: String) -> String {
        var result = text
        for hostName in hostNames { result = result.replacingAll(hostName, with: Self.hostPlaceholder) }
        if let userName { result = result.replacingAll(userName, with: "<user>") }
        return result
    }
}
