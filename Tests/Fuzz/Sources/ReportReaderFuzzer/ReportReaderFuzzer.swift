import Foundation
import FuzzerMain
import LaunchReports

/// One input: reads the bytes as a JSON report (a measurement or
/// a comparison, any schema this version reads). Every input must either read
/// or throw a `ReportError`; a trap or a sanitizer report is a bug.
func reportReaderFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? Data() : Data(bytes: data!, count: size)
    _ = try? JSONReport.readDocument(bytes, path: "fuzz.json")
    return 0
}

/// libFuzzer calls ``reportReaderFuzzer(_:_:)`` with each input.
@main
enum ReportReaderFuzzer {
    static func main() { LibFuzzer.run(reportReaderFuzzer) }
}
