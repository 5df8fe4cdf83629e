import LaunchAnalysis

/// Which findings concern a span: the same ``SpanRecord/key`` (name and call
/// site), or, for a finding without a call site (a hook over its budget), the
/// same name.
package struct FindingMatcher {
    private var bySite: [String: [Int]] = [:]
    private var byName: [String: [Int]] = [:]

    /// Indexes `findings` (their positions are what ``findings(for:)`` returns).
    package init(_ findings: [Finding]) {
        for (index, finding) in findings.enumerated() {
            if let key = finding.spanKey {
                bySite[key, default: []].append(index)
            } else {
                byName[finding.span, default: []].append(index)
            }
        }
    }

    /// The positions of the findings about `span`.
    package func findings(for span: SpanRecord) -> [Int] {
        guard !bySite.isEmpty || !byName.isEmpty else { return [] }
        return (bySite[span.key] ?? []) + (byName[span.name] ?? [])
    }
}
