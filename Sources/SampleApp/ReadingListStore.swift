import Foundation
import LaunchTracing

/// The app's model layer: each step of launch as a function, traced, so both
/// variants do exactly the same work and differ only in where and when.
enum ReadingListStore {
    /// The saved settings; a missing or corrupt file counts as absent: the defaults,
    /// and one line on stderr (a launch must not die of a bad preferences file).
    static func loadSettings(_ data: SampleData) throws -> Settings {
        let bytes = LaunchTracer.measure("ReadSettings", category: .io) { try? Data(contentsOf: data.settingsURL) }
        let settings = LaunchTracer.measure("DecodeSettings", category: .compute) {
            bytes.flatMap { try? JSONDecoder().decode(Settings.self, from: $0) }
        }
        if let settings { return settings }
        let problem = bytes == nil ? "cannot be read" : "is not valid settings JSON"
        if warnedOfBadSettings.claim() {
            SampleSystem.printWarning("sample: \(data.settingsURL.path) \(problem); using the default settings")
        }
        return .defaults
    }

    /// The bad-settings line is printed once per process, however often they are read.
    private static let warnedOfBadSettings = OnceFlag()

    static func readCatalog(_ data: SampleData) throws -> Data {
        try LaunchTracer.measure("ReadCatalog", category: .io) { try Data(contentsOf: data.catalogURL) }
    }

    static func decodeCatalog(_ bytes: Data) throws -> [Book] {
        try LaunchTracer.measure("DecodeCatalog", category: .compute) {
            try JSONDecoder().decode([Book].self, from: bytes)
        }
    }

    static func loadFirstPage(_ data: SampleData) throws -> [Book] {
        let bytes = try LaunchTracer.measure("ReadFirstPage", category: .io) { try Data(contentsOf: data.firstPageURL) }
        return try LaunchTracer.measure("DecodeFirstPage", category: .compute) {
            try JSONDecoder().decode([Book].self, from: bytes)
        }
    }

    /// Writes a compact snapshot of the catalog and forces it to disk (fsync), replacing
    /// the previous one atomically: real disk I/O on every launch.
    static func persistSnapshot(_ books: [Book], _ data: SampleData) throws {
        try LaunchTracer.measure("PersistCatalogSnapshot", category: .io) {
            var bytes = [UInt8]()
            bytes.reserveCapacity(books.count * 160)
            for book in books {
                bytes.append(
                    contentsOf: "\(book.id)\t\(book.title)\t\(book.author)\t\(book.year)\t\(book.summary)\n".utf8)
            }
            try SampleSystem.writeDurably(bytes, to: data.snapshotURL.path)
        }
    }

    static func saveSettings(_ settings: Settings, _ data: SampleData) throws {
        try LaunchTracer.measure("SaveSettings", category: .io) {
            try SampleSystem.writeDurably(Array(try JSONEncoder().encode(settings)), to: data.settingsURL.path)
        }
    }

    static func fetchRemoteConfig(port: UInt16) throws -> RemoteConfig {
        let body = try LaunchTracer.measure("FetchRemoteConfig", category: .network) {
            try SampleSystem.httpGet(port: port, path: "/config")
        }
        return try JSONDecoder().decode(RemoteConfig.self, from: Data(body))
    }

    /// Covers are "rendered" by hashing each book's text many times: real CPU work.
    static func prepareCovers(_ books: [Book]) -> [Int: UInt64] {
        LaunchTracer.measure("PrepareCovers", category: .compute) {
            var covers: [Int: UInt64] = [:]
            covers.reserveCapacity(books.count)
            for book in books {
                var hash: UInt64 = 0xCBF2_9CE4_8422_2325
                for _ in 0..<6 {
                    for byte in book.title.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
                }
                covers[book.id] = hash
            }
            return covers
        }
    }

    static func warmCache(_ books: [Book]) -> [String: [Int]] {
        LaunchTracer.measure("WarmAuthorCache", category: .compute) {
            Dictionary(grouping: books.prefix(2_000), by: \.author).mapValues { $0.map(\.id) }
        }
    }
}

/// True for the first caller of ``claim()`` only. Any thread.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}
