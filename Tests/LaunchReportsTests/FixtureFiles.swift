import Foundation

/// The committed report fixtures of this test target.
///
/// `measurement-v1-*.json` are real `launchprof measure` reports written by the
/// schema-1 version of launchprof (commit 60648a5): `launchprof measure --runs 2
/// --warmup 0 --launch-option reason=url --launch-option url=app://x
/// --budget-ms 5000` (the sample app) and `launchprof measure --runs 3 --warmup 0
/// --ready exit -- /bin/true`. `*.terminal.txt` are the terminal reports
/// expected from them, checked whole.
enum FixtureFiles {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }
}
