import Foundation
import Testing

/// Golden files: a whole output (a command's help, a rendered report, an
/// export) kept under `Tests/` and compared byte for byte, as
/// swift-argument-parser's `AssertHelp(for:equals:)` compares a whole help.
///
/// After a deliberate change, write them again with the one variable
/// ``Golden/updateVariable`` and read the diff before committing:
///
/// ```
/// LAUNCHPROF_UPDATE_GOLDENS=1 swift test --filter HelpGoldenTests
/// ```
public enum Golden {
    /// The one environment variable that rewrites every golden file a test compares with.
    public static let updateVariable = "LAUNCHPROF_UPDATE_GOLDENS"

    /// True when this run rewrites golden files instead of comparing with them.
    public static var updating: Bool { ProcessInfo.processInfo.environment[updateVariable] == "1" }
}

/// Expects `actual` to be, byte for byte, the golden file at `path`; names the
/// first line that differs. With ``Golden/updateVariable`` set, writes the
/// file instead and records an issue, so an updating run never passes silently.
public func assertGolden(_ actual: [UInt8], path: String, sourceLocation: SourceLocation = #_sourceLocation) {
    if Golden.updating {
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(actual).write(to: URL(fileURLWithPath: path))
        } catch {
            Issue.record("cannot write \(path): \(error)", sourceLocation: sourceLocation)
            return
        }
        Issue.record("updated \(path); unset \(Golden.updateVariable) and run again", sourceLocation: sourceLocation)
        return
    }
    guard let expected = FileManager.default.contents(atPath: path).map(Array.init) else {
        Issue.record("no golden file \(path): write it with \(Golden.updateVariable)=1", sourceLocation: sourceLocation)
        return
    }
    guard actual != expected else { return }
    let actualLines = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = String(decoding: expected, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
    let line =
        zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(actualLines.count, expectedLines.count)
    let expectedLine = line < expectedLines.count ? String(expectedLines[line]) : "(end of file)"
    let actualLine = line < actualLines.count ? String(actualLines[line]) : "(end of output)"
    Issue.record(
        "\(path) differs from line \(line + 1):\n  expected: \(expectedLine)\n  actual:   \(actualLine)",
        sourceLocation: sourceLocation)
}

/// ``assertGolden(_:path:sourceLocation:)`` for text.
public func assertGolden(_ actual: String, path: String, sourceLocation: SourceLocation = #_sourceLocation) {
    assertGolden(Array(actual.utf8), path: path, sourceLocation: sourceLocation)
}
