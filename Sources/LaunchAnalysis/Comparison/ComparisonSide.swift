/// One side of a comparison: the base (before the change) or the head (after it).
///
/// Its raw value names the side wherever text does: the runs folder's
/// `base/` and `head/`, a side's report name `<comparison> (head)`, the progress line.
public enum ComparisonSide: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case base
    case head
}
