extension FindingsDiff {
    /// One call site: a name in a file at a line.
    struct Site: Hashable {
        var name: String
        var file: String
        var line: Int
    }

    /// Pairs the head's sites that the base does not have with the base's sites that
    /// the head does not have, when only their line differs (the code above them
    /// moved): a name that is unique in its file on both sides is paired whatever the
    /// distance; otherwise each head site takes the nearest unpaired base site of the
    /// same name and file (the earlier line on a tie).
    ///
    /// - Returns: For each paired head site, the base site it continues.
    static func movedLines(base: Set<Site>, head: Set<Site>) -> [Site: Site] {
        let onlyBase = base.subtracting(head)
        let onlyHead = head.subtracting(base)
        guard !onlyBase.isEmpty, !onlyHead.isEmpty else { return [:] }
        struct Group: Hashable {
            var name: String
            var file: String
        }
        let baseGroups = Dictionary(grouping: onlyBase) { Group(name: $0.name, file: $0.file) }
        let headGroups = Dictionary(grouping: onlyHead) { Group(name: $0.name, file: $0.file) }
        let baseCounts = Dictionary(grouping: base) { Group(name: $0.name, file: $0.file) }.mapValues(\.count)
        let headCounts = Dictionary(grouping: head) { Group(name: $0.name, file: $0.file) }.mapValues(\.count)
        var pairs: [Site: Site] = [:]
        for (group, heads) in headGroups {
            guard var candidates = baseGroups[group] else { continue }
            if baseCounts[group] == 1, headCounts[group] == 1, let only = heads.first {
                pairs[only] = candidates[0]
                continue
            }
            for site in heads.sorted(by: { $0.line < $1.line }) {
                guard
                    let nearest = candidates.indices.min(by: {
                        let (a, b) = (abs(candidates[$0].line - site.line), abs(candidates[$1].line - site.line))
                        return a != b ? a < b : candidates[$0].line < candidates[$1].line
                    })
                else { break }
                pairs[site] = candidates.remove(at: nearest)
            }
        }
        return pairs
    }
}
