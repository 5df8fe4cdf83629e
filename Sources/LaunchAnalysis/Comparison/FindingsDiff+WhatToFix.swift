extension FindingsDiff {
    /// The findings new in the head, most costly first: what a comparison
    /// lists first under its verdict, as what to fix.
    public var newFindingsToFix: [FindingChange] {
        new.enumerated().sorted { ($1.element.headMs ?? 0, $0.offset) < ($0.element.headMs ?? 0, $1.offset) }.map(
            \.element)
    }

    /// The main-thread spans that got slower in the head by enough to explain
    /// anything (``SpanChange/hasMoved``; new ones included) and beyond the
    /// launches' noise (``SpanChange/isWithinNoise``), surest first, leaving
    /// out the call sites a new finding already names: what a comparison lists
    /// under its new findings, as what to fix.
    public var slowerSpans: [SpanChange] {
        let named = Set(
            new.compactMap { change in
                change.file.flatMap { file in
                    change.line.map { SpanRecord.key(name: change.span, file: file, line: $0) }
                }
            })
        return spans.filter {
            $0.hasMoved && $0.deltaMs > 0 && !$0.isWithinNoise
                && !named.contains(SpanRecord.key(name: $0.name, file: $0.file, line: $0.line))
        }
    }
}
