/// The parts of an HTTP/1.1 answer a post uses: its status, `Retry-After`, and
/// the start of its body (for the error message).
struct HTTPResponse: Equatable {
    var status: Int
    /// `Retry-After` in seconds, when given as a number.
    var retryAfterSeconds: Double?
    /// The body as text, cut at 1 KiB.
    var body: String

    /// Parses an answer; nil when it has no complete status line and head.
    init?(_ bytes: [UInt8]) {
        guard let headEnd = Self.headEnd(bytes) else { return nil }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            return nil
        }
        self.status = status
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == "retry-after" {
                retryAfterSeconds = Double(line[line.index(after: colon)...].trimmed(of: " \t")).flatMap {
                    $0 >= 0 && $0.isFinite ? $0 : nil
                }
            }
        }
        body = String(decoding: bytes[(headEnd + 4)...].prefix(1_024), as: UTF8.self)
    }

    /// True once the head and as much body as `Content-Length` says have arrived.
    static func isComplete(_ bytes: [UInt8]) -> Bool {
        guard let headEnd = headEnd(bytes) else { return false }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self).lowercased()
        guard let range = head.range(of: "\r\ncontent-length:") else { return false }
        let digits = head[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
        guard let length = Int(digits) else { return false }
        return bytes.count - (headEnd + 4) >= length
    }

    /// Where `\r\n\r\n` begins.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
