import LaunchAnalysis

/// A report document whose formats are each rendered once, however many
/// files they are written to: `measure --save-baseline` writes the JSON
/// report and its baseline from the same bytes. Only the formats it is told
/// to keep are held after they are written (a large report's other formats
/// are not all in memory at once).
///
/// ```swift
/// var report = RenderedReport(.measurement(measured), keeping: [.json])
/// let writer = ReportWriter(directory: "Reports")
/// _ = try writer.write(&report, formats: [.json, .html])
/// _ = try ReportWriter(directory: "Reports/baselines").write(&report, format: .json, name: "main")  // not rendered again
/// ```
public struct RenderedReport: Sendable {
    /// The document rendered.
    public let document: ReportDocument
    /// How its formats are rendered.
    public let options: RenderOptions
    /// The formats whose bytes are kept once rendered, to be written again.
    public let kept: Set<ReportFormat>
    /// The kept formats rendered so far.
    private var rendered: [ReportFormat: [UInt8]] = [:]
    /// How many times a format was rendered.
    public private(set) var renderCount = 0

    /// `document`, nothing rendered yet; the formats in `kept` are rendered once
    /// and held, the others rendered each time they are asked for.
    public init(
        _ document: ReportDocument, options: RenderOptions = RenderOptions(), keeping kept: Set<ReportFormat> = []
    ) {
        self.document = document
        self.options = options
        self.kept = kept
    }

    /// Holds `bytes` as `format`'s, in place of what it would render: the JSON
    /// report rewritten with the fields a later launchprof wrote (``JSONUnknownFields``).
    package mutating func keep(_ bytes: [UInt8], for format: ReportFormat) {
        rendered[format] = bytes
    }

    /// `format`'s bytes: rendered now, or the ones rendered before for a kept format.
    ///
    /// - Throws: what ``ReportFormat/render(_:options:)`` throws.
    public mutating func bytes(of format: ReportFormat) throws(ReportError) -> [UInt8] {
        if let bytes = rendered[format] { return bytes }
        let bytes = try format.render(document, options: options)
        renderCount += 1
        if kept.contains(format) { rendered[format] = bytes }
        return bytes
    }

    /// Renders `format` as it is written, for a format rendered in pieces (the
    /// Chrome trace: hundreds of MB for a big report) that is not kept: the
    /// returned function hands the bytes ``bytes(of:)`` would return to its
    /// `write`, in order, a piece at a time. Nil for the other formats.
    ///
    /// ```swift
    /// if let stream = report.streamed(.chromeTrace) { try AtomicFile.write(to: path, stream) }
    /// ```
    package mutating func streamed(_ format: ReportFormat) -> ((_ write: (UnsafeRawBufferPointer) -> Void) -> Void)? {
        guard format == .chromeTrace, !kept.contains(format), rendered[format] == nil else { return nil }
        renderCount += 1
        let document = document.cappedForDisplay()
        return { write in ChromeTraceReport.render(document, chunks: write) }
    }
}
