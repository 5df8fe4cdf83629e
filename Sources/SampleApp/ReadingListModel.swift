import Foundation

/// Everything the app holds once launch has fully ended. Every variant must
/// reach the same model, the slowed one with its recommendations besides (a
/// test checks it).
public struct ReadingListState: Sendable, Equatable {
    public var catalogCount = 0
    public var firstPageTitles: [String] = []
    public var indexTermCount = 0
    public var indexPostingCount = 0
    public var remoteConfig: RemoteConfig?
    public var coverCount = 0
    public var authorCacheCount = 0
    public var settingsSaved = false
    public var snapshotPersisted = false
    /// The recommended books' ids, best first; only the slowed variant ranks
    /// them, so empty for the others.
    public var recommendedBookIDs: [Int] = []
}

/// The app's live model, shared by every launch in the process.
public final class ReadingListModel: @unchecked Sendable {
    /// The process's model.
    public static let shared = ReadingListModel()

    private let lock = NSLock()
    private var value = ReadingListState()

    /// A copy of the current state.
    public var state: ReadingListState { lock.withLock { value } }

    func update(_ body: (inout ReadingListState) -> Void) {
        lock.withLock { body(&value) }
    }

    /// Forgets everything (a new launch starts empty).
    public func reset() {
        lock.withLock { value = ReadingListState() }
    }

    /// The sample's data files, and the port of its remote configuration service.
    public internal(set) var data = SampleData()
    public internal(set) var configPort: UInt16 = 0

    /// Points the model at `data` and a running configuration service.
    public func configure(data: SampleData, configPort: UInt16) {
        self.data = data
        self.configPort = configPort
    }
}
