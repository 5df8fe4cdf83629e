import LaunchTracing

extension WaitTarget {
    /// `targets` with the sockets to one host on different ports folded into one
    /// target per host, their counts added: a program that starts a server of its
    /// own on an ephemeral port each run (or talks to one host on several ports)
    /// is one peer, not one per run. The host keeps its ports in its name while
    /// there are at most `portsNamed` of them (`127.0.0.1 (ports 34009, 36059)`),
    /// their count beyond (`127.0.0.1 (10 ports)`). A host with one port, and every
    /// other kind of target, is left as it is.
    ///
    /// ```swift
    /// let merged = WaitTarget.foldingPorts([WaitTarget(kind: .socket, name: "127.0.0.1:34009"): 2,
    ///                                       WaitTarget(kind: .socket, name: "127.0.0.1:36059"): 1])
    /// // [WaitTarget(kind: .socket, name: "127.0.0.1 (ports 34009, 36059)"): 3]
    /// ```
    public static func foldingPorts(_ targets: [WaitTarget: Int], portsNamed: Int = 3) -> [WaitTarget: Int] {
        var byHost: [String: [(port: Int, count: Int)]] = [:]
        var folded: [WaitTarget: Int] = [:]
        for (target, count) in targets {
            guard target.kind == .socket, let (host, port) = target.hostAndPort else {
                folded[target, default: 0] += count
                continue
            }
            byHost[host, default: []].append((port, count))
        }
        for (host, ports) in byHost {
            guard ports.count > 1 else {
                folded[WaitTarget(kind: .socket, name: "\(host):\(ports[0].port)"), default: 0] += ports[0].count
                continue
            }
            let numbers = ports.map(\.port).sorted()
            let name =
                numbers.count <= portsNamed
                ? "\(host) (ports \(numbers.map(String.init).joined(separator: ", ")))"
                : "\(host) (\(numbers.count) ports)"
            folded[WaitTarget(kind: .socket, name: name), default: 0] += ports.map(\.count).reduce(0, +)
        }
        return folded
    }

    /// A socket peer's host (an IPv6 one in its brackets) and port, when its name is `host:port`.
    var hostAndPort: (host: String, port: Int)? {
        guard let colon = name.lastIndex(of: ":"), let port = Int(name[name.index(after: colon)...]),
            (0...65_535).contains(port)
        else { return nil }
        let host = String(name[..<colon])
        // An IPv6 peer is bracketed ("[::1]:443"); an unbracketed colon belongs to the address.
        guard !host.isEmpty, host.hasPrefix("[") ? host.hasSuffix("]") : !host.contains(":") else { return nil }
        return (host, port)
    }
}
