/// One entry of the reading list.
public struct Book: Codable, Sendable, Equatable {
    public var id: Int
    public var title: String
    public var author: String
    public var year: Int
    public var tags: [String]
    public var summary: String
    public var isRead: Bool
}

/// The user's settings, read at every launch.
public struct Settings: Codable, Sendable, Equatable {
    public var sortOrder: String
    public var showFinished: Bool
    public var launchCount: Int
    public var remoteConfigPort: Int?

    /// What a first launch, or a launch whose settings file is missing or corrupt, starts from.
    public static let defaults = Settings(
        sortOrder: "title", showFinished: false, launchCount: 0, remoteConfigPort: nil)
}

/// What the remote configuration service answers.
public struct RemoteConfig: Codable, Sendable, Equatable {
    public var version: Int
    public var featuredTag: String
    public var pageSize: Int
}
