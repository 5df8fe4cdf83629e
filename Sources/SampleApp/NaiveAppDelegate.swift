import Dispatch
import Foundation
import LaunchHarness
import LaunchTracing

/// The reading list as many apps start out: everything synchronously in the
/// launch hooks, on the main thread. Each mistake here is one the advisor
/// should find.
final class NaiveAppDelegate: LaunchDelegate {
    required init() {}

    func willFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
        let model = ReadingListModel.shared
        do {
            try LaunchTracer.measure("InstallSampleData", category: .io) { try model.data.ensureInstalled() }
            _ = try ReadingListStore.loadSettings(model.data)
        } catch {
            fatalError("sample app: \(error)")
        }
        return true
    }

    func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
        do {
            _ = try loadEverything()
        } catch {
            fatalError("sample app: \(error)")
        }
        return true
    }

    /// All of the app's launch work, synchronously on the calling thread: what
    /// `didFinishLaunching` does. Returns the decoded catalog, which the slowed
    /// variant goes on to rank.
    func loadEverything() throws -> [Book] {
        let model = ReadingListModel.shared
        // Needed for the first screen, but all of it, synchronously.
        let bytes = try ReadingListStore.readCatalog(model.data)
        let books = try ReadingListStore.decodeCatalog(bytes)
        // Mistake: real disk writes + fsync on the main thread.
        try ReadingListStore.persistSnapshot(books, model.data)
        // Mistake: search is not on the first screen; this could wait.
        let index = SearchIndex(books)
        // Mistake: a network round trip on the main thread.
        let config = try ReadingListStore.fetchRemoteConfig(port: model.configPort)
        // Mistake: background work, then the main thread blocks on a semaphore for it.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var covers: [Int: UInt64] = [:]
        DispatchQueue.global().async {
            covers = ReadingListStore.prepareCovers(books)
            done.signal()
        }
        LaunchTracer.measure("WaitForCovers", category: .wait) { done.wait() }
        let authors = ReadingListStore.warmCache(books)
        var settings = try ReadingListStore.loadSettings(model.data)
        settings.launchCount += 1
        try ReadingListStore.saveSettings(settings, model.data)
        model.update {
            $0.catalogCount = books.count
            $0.firstPageTitles = books.prefix(SampleData.firstPageCount).map(\.title)
            $0.indexTermCount = index.termCount
            $0.indexPostingCount = index.postingCount
            $0.remoteConfig = config
            $0.coverCount = covers.count
            $0.authorCacheCount = authors.count
            $0.settingsSaved = true
            $0.snapshotPersisted = true
        }
        return books
    }
}
