import Foundation

/// The committed fixtures: `measurement-v2-sample.json` is a real report of
/// `launchprof measure --runs 2` (the sample app, one warm-up; its paths made
/// generic), and `*.otlp.json` the exports expected from it and from the
/// schema-1 reports of the LaunchReports tests, with ids from
/// `SeededGenerator(seed: 15)`.
enum FixtureFiles {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A fixture of the LaunchReports tests (the schema-1 reports).
    static func reportsFixture(_ name: String) -> String {
        directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("LaunchReportsTests/Fixtures").appendingPathComponent(name).path
    }
}
