import Foundation
import FuzzerMain
import LaunchAnalysis
import LaunchReports

/// One input: reads the bytes as a baseline's between-session spread file
/// (`baselines/NAME.spread.json`), strictly, as `compare --baseline` does: every
/// input must either read or throw; a spread that reads and passes its checks
/// (``SessionSpread/problem``) is used as the gate uses it (its ratio, its summary)
/// and must survive being written back and read again.
func spreadReaderFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? Data() : Data(bytes: data!, count: size)
    guard let spread = try? StrictJSON.decode(SessionSpread.self, from: bytes) else { return 0 }
    guard spread.problem == nil else { return 0 }
    _ = spread.ratio
    _ = spread.percent
    _ = spread.summary
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let written = try? encoder.encode(spread) else { fatalError("a spread that read could not be written") }
    guard let again = try? StrictJSON.decode(SessionSpread.self, from: written), again.problem == nil else {
        fatalError("a spread read from a file could not be read back from its own JSON")
    }
    return 0
}

/// libFuzzer calls ``spreadReaderFuzzer(_:_:)`` with each input.
@main
enum SpreadReaderFuzzer {
    static func main() { LibFuzzer.run(spreadReaderFuzzer) }
}
