import Foundation
import LaunchHarness

/// `--launch-option KEY=VALUE` pairs, turned into the JSON the harness reads
/// (`LAUNCHPROF_LAUNCH_OPTIONS`). `payload.NAME=VALUE` goes into the payload;
/// `background` takes `true` or `false`.
enum LaunchOptionArguments {
    /// The options as JSON, or nil when none were given; checked by the harness's own parser.
    static func json(from pairs: [String]) throws -> String? {
        guard !pairs.isEmpty else { return nil }
        var fields: [String: Any] = [:]
        var payload: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw UsageError("--launch-option takes KEY=VALUE, not '\(oneLine(pair))'")
            }
            let key = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
            if key.hasPrefix("payload.") {
                let name = String(key.dropFirst("payload.".count))
                guard !name.isEmpty else { throw UsageError("--launch-option payload.NAME needs a name after 'payload.'") }
                guard payload[name] == nil else { throw UsageError("--launch-option '\(oneLine(key))' was given twice") }
                payload[name] = value
                continue
            }
            guard fields[key] == nil else { throw UsageError("--launch-option '\(oneLine(key))' was given twice") }
            if key == "background" {
                guard value == "true" || value == "false" else {
                    throw UsageError("--launch-option background takes true or false, not '\(oneLine(value))'")
                }
                fields[key] = value == "true"
            } else {
                fields[key] = value
            }
        }
        if !payload.isEmpty { fields["payload"] = payload }
        let data = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
        let json = String(decoding: data, as: UTF8.self)
        do {
            _ = try LaunchOptions(json: json)
        } catch {
            throw UsageError("bad --launch-option: \(oneLine("\(error)"))")
        }
        return json
    }

    /// `text` with line breaks shown as `\n`, for one-line messages.
    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
    }
}
