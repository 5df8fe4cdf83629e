import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// The page's text meets WCAG 2.1 AA contrast (4.5 : 1) in its light and dark
/// colours: body and muted text on the page and on cards, the verdict's word on
/// its tinted box, and span and phase labels on every fill they are drawn on.
@Suite("HTML report colours")
struct ContrastTests {
    /// The custom properties of the page's first `:root { … }` block after `marker`.
    static func palette(_ page: String, after marker: String) throws -> [String: String] {
        let start = try #require(page.range(of: marker))
        let root = try #require(page.range(of: ":root {", range: start.lowerBound..<page.endIndex))
        let end = try #require(page.range(of: "}", range: root.upperBound..<page.endIndex))
        var colours: [String: String] = [:]
        for declaration in page[root.upperBound..<end.lowerBound].split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            if parts.count == 2, parts[0].hasPrefix("--"), parts[1].hasPrefix("#") {
                colours[String(parts[0].dropFirst(2))] = parts[1]
            }
        }
        return colours
    }

    /// WCAG 2.1 relative luminance of `#rrggbb`.
    static func luminance(_ hex: String) -> Double {
        let value = Int(hex.dropFirst(), radix: 16)!
        let bytes: [Int] = [(value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF]
        let channels: [Double] = bytes.map { byte -> Double in
            let c = Double(byte) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let red: Double = 0.2126 * channels[0]
        let green: Double = 0.7152 * channels[1]
        let blue: Double = 0.0722 * channels[2]
        return red + green + blue
    }

    static func contrast(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    @Test(arguments: ["  :root {", "@media (prefers-color-scheme: dark)"])
    func everyTextColourMeetsAAOnWhatItIsDrawnOn(mode: String) throws {
        let page = HTMLReport.render(.measurement(try SampleReports.sample()))
        let colours = try Self.palette(page, after: mode == "  :root {" ? "<style>" : mode)
        var pairs: [(String, String)] = [
            ("fg", "bg"), ("muted", "bg"), ("muted", "card"), ("fg", "card"),
            ("good", "good-bg"), ("bad", "bad-bg"), ("warn", "warn-bg"),
            ("good", "bg"), ("bad", "bg"), ("warn", "bg"),
        ]
        let fills = [
            "cpu", "queue", "disk", "network", "lock", "sleep", "wait", "nest", "none", "loader", "staticInit",
            "appInit",
            "willFinishLaunching", "didFinishLaunching", "initialFrame", "extended",
        ]
        pairs += fills.map { ("label", $0) }
        for (text, background) in pairs {
            let foreground = try #require(colours[text], "--\(text)")
            let back = try #require(colours[background], "--\(background)")
            let ratio = Self.contrast(foreground, back)
            #expect(ratio >= 4.5, "\(mode): --\(text) on --\(background) is \(ratio)")
        }
        // Severity outlines differ from the budget line's colour.
        #expect(colours["sev-critical"] != colours["budget"])
    }
}
