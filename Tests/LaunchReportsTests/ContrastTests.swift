import Foundation
import LaunchAnalysis
import LaunchReports
import Testing

/// The page's text meets WCAG 2.1 AA contrast (4.5 : 1) in its light and dark
/// colours: body and muted text on the page and on cards, the verdict's word on
/// its tinted box, and phase labels on every fill they are drawn on; its graphics
/// (span kinds, focus ring, outlines) 3 : 1 against the page; its kind colours
/// told apart under colour-blindness simulations.
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
        // Phase names are written on their fills; span names on a halo of the page's colour (fg on bg).
        let fills = [
            "loader", "staticInit", "appInit", "willFinishLaunching", "didFinishLaunching", "initialFrame", "extended",
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

    /// The kinds a span's time is split into, the merged bars, the focus ring and the outlines: graphics, so 3 : 1
    /// (WCAG 2.1, 1.4.11) against the page, and the focus ring against the findings' cards too.
    @Test(arguments: ["  :root {", "@media (prefers-color-scheme: dark)"])
    func everyGraphicColourStandsOutFromThePage(mode: String) throws {
        let page = HTMLReport.render(.measurement(try SampleReports.sample()))
        let colours = try Self.palette(page, after: mode == "  :root {" ? "<style>" : mode)
        let graphics = Self.kinds + ["merged", "focus", "sev-critical", "sev-warning", "sev-info", "budget"]
        for name in graphics {
            let colour = try #require(colours[name], "--\(name)")
            let background = try #require(colours["bg"])
            #expect(
                Self.contrast(colour, background) >= 3,
                "\(mode): --\(name) on --bg is \(Self.contrast(colour, background))")
        }
        let focus = try #require(colours["focus"])
        #expect(Self.contrast(focus, try #require(colours["card"])) >= 3, "\(mode): --focus on --card")
    }

    /// The eight kind colours.
    static let kinds = ["cpu", "queue", "disk", "network", "lock", "sleep", "wait", "none"]

    /// At most eight kinds, told apart by everyone: every pair at least ΔE 2000 of 10 apart, as seen with full
    /// protanopia, deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, severity 1) and without.
    @Test(arguments: ["  :root {", "@media (prefers-color-scheme: dark)"])
    func theKindColoursStayApartUnderColourBlindness(mode: String) throws {
        let page = HTMLReport.render(.measurement(try SampleReports.sample()))
        let colours = try Self.palette(page, after: mode == "  :root {" ? "<style>" : mode)
        let rgb = try Self.kinds.map { try #require(colours[$0]) }.map(ColourVision.rgb)
        #expect(rgb.count <= 8)
        for (label, matrix) in ColourVision.simulations {
            let lab = rgb.map { colour in ColourVision.lab(matrix.map { ColourVision.simulate(colour, $0) } ?? colour) }
            for i in lab.indices {
                for j in lab.indices where j > i {
                    let difference = ColourVision.deltaE2000(lab[i], lab[j])
                    #expect(
                        difference >= 10,
                        "\(mode), \(label): --\(Self.kinds[i]) and --\(Self.kinds[j]) ΔE \(difference)")
                }
            }
        }
    }
}

/// Colour-vision simulation and colour difference, for the palette's test.
enum ColourVision {
    typealias Matrix = [[Double]]
    /// Machado et al. 2009, severity 1.0, on linear RGB; nil: normal vision.
    static let simulations: [(String, Matrix?)] = [
        ("normal vision", nil),
        (
            "protanopia",
            [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
        ),
        (
            "deuteranopia",
            [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
        ),
        (
            "tritanopia",
            [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
        ),
    ]

    /// `#rrggbb` as sRGB channels in 0…1.
    static func rgb(_ hex: String) -> [Double] {
        let value = Int(hex.dropFirst(), radix: 16)!
        return [(value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF].map { Double($0) / 255 }
    }

    static func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
    static func gamma(_ c: Double) -> Double {
        let c = min(max(c, 0), 1)
        return c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055
    }

    /// `colour` as seen through `matrix`.
    static func simulate(_ colour: [Double], _ matrix: Matrix) -> [Double] {
        let l = colour.map(linear)
        return matrix.map { row in gamma(row[0] * l[0] + row[1] * l[1] + row[2] * l[2]) }
    }

    /// CIE L*a*b* (D65) of an sRGB colour.
    static func lab(_ colour: [Double]) -> [Double] {
        let l = colour.map(linear)
        let x = (0.4124 * l[0] + 0.3576 * l[1] + 0.1805 * l[2]) / 0.95047
        let y = 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]
        let z = (0.0193 * l[0] + 0.1192 * l[1] + 0.9505 * l[2]) / 1.08883
        func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16 / 116 }
        return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))]
    }

    /// CIEDE2000 colour difference.
    static func deltaE2000(_ a: [Double], _ b: [Double]) -> Double {
        func degrees(_ r: Double) -> Double { r * 180 / .pi }
        func radians(_ d: Double) -> Double { d * .pi / 180 }
        let c1 = hypot(a[1], a[2])
        let c2 = hypot(b[1], b[2])
        let cBar = (c1 + c2) / 2
        let g = 0.5 * (1 - sqrt(pow(cBar, 7) / (pow(cBar, 7) + pow(25, 7))))
        let a1 = (1 + g) * a[1]
        let a2 = (1 + g) * b[1]
        let c1p = hypot(a1, a[2])
        let c2p = hypot(a2, b[2])
        var h1 = degrees(atan2(a[2], a1))
        var h2 = degrees(atan2(b[2], a2))
        if h1 < 0 { h1 += 360 }
        if h2 < 0 { h2 += 360 }
        let dL = b[0] - a[0]
        let dC = c2p - c1p
        var dh = h2 - h1
        if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        if c1p * c2p == 0 { dh = 0 }
        let dH = 2 * sqrt(c1p * c2p) * sin(radians(dh / 2))
        let lBar = (a[0] + b[0]) / 2
        let cBarP = (c1p + c2p) / 2
        var hBar = h1 + h2
        if c1p * c2p != 0 { hBar = abs(h1 - h2) > 180 ? (hBar < 360 ? (hBar + 360) / 2 : (hBar - 360) / 2) : hBar / 2 }
        let t =
            1 - 0.17 * cos(radians(hBar - 30)) + 0.24 * cos(radians(2 * hBar)) + 0.32 * cos(radians(3 * hBar + 6))
            - 0.20 * cos(radians(4 * hBar - 63))
        let dTheta = 30 * exp(-pow((hBar - 275) / 25, 2))
        let rC = 2 * sqrt(pow(cBarP, 7) / (pow(cBarP, 7) + pow(25, 7)))
        let sL = 1 + 0.015 * pow(lBar - 50, 2) / sqrt(20 + pow(lBar - 50, 2))
        let sC = 1 + 0.045 * cBarP
        let sH = 1 + 0.015 * cBarP * t
        let rT = -sin(radians(2 * dTheta)) * rC
        return sqrt(pow(dL / sL, 2) + pow(dC / sC, 2) + pow(dH / sH, 2) + rT * (dC / sC) * (dH / sH))
    }
}
