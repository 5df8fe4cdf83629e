import Foundation
import LaunchHarness
import LaunchTracing

/// The same reading list after following the advisor: only the first page is
/// loaded in the hooks; I/O, network and the covers run on background queues;
/// the search index waits until after the first frame.
final class OptimizedAppDelegate: LaunchDelegate {
    required init() {}

    /// Background tasks still running; the last one to finish reports fully drawn.
    private let pending = PendingWork()

    func willFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
        let model = ReadingListModel.shared
        do {
            try LaunchTracer.measure("InstallSampleData", category: .io) { try model.data.ensureInstalled() }
            _ = try ReadingListStore.loadSettings(model.data)
        } catch {
            fatalError("sample app: \(error)")
        }
        app.reportsFullyDrawn = true
        return true
    }

    func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
        let model = ReadingListModel.shared
        let data = model.data
        let port = model.configPort
        do {
            // The first screen needs only its first page: a small file.
            let firstPage = try ReadingListStore.loadFirstPage(data)
            model.update { $0.firstPageTitles = firstPage.map(\.title) }
        } catch {
            fatalError("sample app: \(error)")
        }
        let pending = self.pending
        pending.expect(3)

        app.runInBackground("LoadCatalog") {
            do {
                let books = try ReadingListStore.decodeCatalog(try ReadingListStore.readCatalog(data))
                try ReadingListStore.persistSnapshot(books, data)
                let covers = ReadingListStore.prepareCovers(books)
                app.runOnMain {
                    model.update {
                        $0.catalogCount = books.count
                        $0.coverCount = covers.count
                        $0.snapshotPersisted = true
                    }
                    // Search and the author cache are not on the first screen.
                    app.deferUntilAfterFirstFrame("BuildSearchIndexDeferred") {
                        let index = SearchIndex(books)
                        let authors = ReadingListStore.warmCache(books)
                        model.update {
                            $0.indexTermCount = index.termCount
                            $0.indexPostingCount = index.postingCount
                            $0.authorCacheCount = authors.count
                        }
                        pending.finish(app)
                    }
                }
            } catch {
                fatalError("sample app: \(error)")
            }
        }
        app.runInBackground("FetchRemoteConfigInBackground") {
            let config = try? ReadingListStore.fetchRemoteConfig(port: port)
            app.runOnMain {
                model.update { $0.remoteConfig = config }
                pending.finish(app)
            }
        }
        app.runInBackground("SaveSettingsInBackground") {
            do {
                var settings = try ReadingListStore.loadSettings(data)
                settings.launchCount += 1
                try ReadingListStore.saveSettings(settings, data)
                model.update { $0.settingsSaved = true }
            } catch {
                fatalError("sample app: \(error)")
            }
            app.runOnMain { pending.finish(app) }
        }
        return true
    }
}

/// Counts outstanding pieces of extended launch; the last reports fully drawn.
final class PendingWork: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining = 0

    func expect(_ count: Int) { lock.withLock { remaining += count } }

    func finish(_ app: LaunchApplication) {
        let done = lock.withLock { () -> Bool in
            remaining -= 1
            return remaining == 0
        }
        if done { app.reportFullyDrawn() }
    }
}
