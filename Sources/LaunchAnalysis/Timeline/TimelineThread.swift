/// A thread that recorded spans during a launch.
public struct TimelineThread: Sendable, Codable, Equatable {
    /// The OS thread id (Linux `gettid`), as ``SpanRecord/threadID`` holds it.
    public var id: UInt64
    /// The thread's name, if it had one.
    public var name: String?
    /// True for the thread that ran the launch hooks (the main thread).
    public var isMain: Bool

    /// Makes a thread record.
    public init(id: UInt64, name: String?, isMain: Bool) {
        self.id = id
        self.name = name
        self.isMain = isMain
    }
}
