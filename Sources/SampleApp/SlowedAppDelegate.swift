import LaunchHarness
import LaunchTracing

/// The naive reading list after a change that costs launch time: it does all
/// that the naive one does, then ranks recommendations over the whole catalog
/// in `didFinishLaunching`, on the main thread, before the first frame.
///
/// The regression gate's example: measured against the naive variant as the
/// base, `RankRecommendations` is the regression it should find and name.
final class SlowedAppDelegate: LaunchDelegate {
    /// The naive app, whose launch this one runs unchanged.
    private let naive = NaiveAppDelegate()

    required init() {}

    func willFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
        naive.willFinishLaunching(app, options: options)
    }

    func didFinishLaunching(_ app: LaunchApplication, options: LaunchOptions) -> Bool {
        do {
            let books = try naive.loadEverything()
            // The regression: recommendations are not on the first screen, yet
            // the whole catalog is ranked before it is drawn.
            let recommendations = LaunchTracer.measure("RankRecommendations", category: .compute) {
                Recommendations(books)
            }
            ReadingListModel.shared.update { $0.recommendedBookIDs = recommendations.bookIDs }
        } catch {
            fatalError("sample app: \(error)")
        }
        return true
    }
}
