import Foundation

/// The sample's files on disk: written once on first launch (the app's
/// one-time setup), read at every launch.
public struct SampleData: Sendable {
    /// Where the files live: `LAUNCHPROF_SAMPLE_DIR`, else `~/.cache/launchprof-sample`.
    public let directory: URL

    public static let bookCount = 20_000
    public static let firstPageCount = 40

    public init(directory: URL? = nil) {
        if let directory {
            self.directory = directory
        } else if let override = ProcessInfo.processInfo.environment["LAUNCHPROF_SAMPLE_DIR"], !override.isEmpty {
            self.directory = URL(fileURLWithPath: override)
        } else {
            self.directory = FileManager.default.homeDirectoryForCurrentUser
                .appendingPathComponent(".cache/launchprof-sample")
        }
    }

    var catalogURL: URL { directory.appendingPathComponent("catalog.json") }
    var firstPageURL: URL { directory.appendingPathComponent("first-page.json") }
    var settingsURL: URL { directory.appendingPathComponent("settings.json") }
    var snapshotURL: URL { directory.appendingPathComponent("catalog.snapshot") }

    /// First launch: generates the catalog (about 5 MB of JSON), the first page and
    /// the settings. Later launches find them and return at once.
    public func ensureInstalled() throws {
        if FileManager.default.fileExists(atPath: settingsURL.path) { return }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let books = Self.generateBooks(count: Self.bookCount)
        let encoder = JSONEncoder()
        try encoder.encode(books).write(to: catalogURL, options: .atomic)
        try encoder.encode(Array(books.prefix(Self.firstPageCount))).write(to: firstPageURL, options: .atomic)
        try encoder.encode(Settings.defaults).write(to: settingsURL, options: .atomic)
    }

    /// A deterministic catalog: the same on every machine.
    static func generateBooks(count: Int) -> [Book] {
        let words = [
            "river", "night", "garden", "empire", "silent", "winter", "machine", "ocean", "letters", "stone",
            "fire", "glass", "shadow", "north", "orchard", "harbor", "iron", "paper", "summer", "crown",
            "forest", "lantern", "mirror", "salt", "thunder", "velvet", "wolf", "atlas", "ember", "meadow",
        ]
        let authors = ["A. Rivera", "B. Okafor", "C. Lindqvist", "D. Tanaka", "E. Moreau", "F. Haddad", "G. Novak"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        return (0..<count).map { id in
            let title = (0..<3).map { _ in words[next() % words.count] }.joined(separator: " ").capitalized
            let summary = (0..<24).map { _ in words[next() % words.count] }.joined(separator: " ")
            return Book(
                id: id, title: title, author: authors[next() % authors.count], year: 1900 + next() % 125,
                tags: [words[next() % words.count], words[next() % words.count]], summary: summary,
                isRead: next() % 3 == 0)
        }
    }
}
