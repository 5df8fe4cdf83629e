import LaunchAnalysis
import LaunchTracing

/// Where each span of one launch is drawn in the HTML timeline: which spans
/// (the longest ones, up to a cap), in which lane, on which row.
///
/// Lane 0 is the main thread; its rows are the spans' nesting depths. Every
/// other thread that recorded a drawn span has a lane of its own, named after
/// the thread, in the order the threads first began a span. Spans of reports
/// written before spans carried their thread's id are laid out in lanes of
/// their own: each outermost span goes to the first lane free at its begin, and
/// the spans nested in it follow it; such a lane is a set of spans that never
/// overlap, not a particular thread.
///
/// Cost: O(n log n) in the launch's spans, plus O(drawn × lanes).
///
/// ```swift
/// let layout = TimelineLayout(timeline: run.timeline!, limit: 2_000)
/// print(layout.lanes.map(\.label), layout.placed.count, "of", layout.totalSpans)
/// ```
struct TimelineLayout {
    /// One drawn span.
    struct Placed {
        /// The span.
        var span: SpanRecord
        /// Its lane (0: the main thread).
        var lane: Int
        /// Its row in the lane (0 at the top).
        var row: Int
    }

    /// One horizontal lane.
    struct Lane {
        /// What the lane shows: `main thread`, `worker · 4242` (a thread's name and id),
        /// `other threads`, `other threads · 2`.
        var label: String
        /// How many rows of spans it has (at least one).
        var rows: Int
    }

    /// The spans drawn, main thread first, each lane's in begin order.
    var placed: [Placed]
    /// The lanes, main thread first.
    var lanes: [Lane]
    /// How many spans the launch recorded (drawn or not).
    var totalSpans: Int
    /// Where time 0 of the drawing is: the spawn, or where a hot launch began.
    var originNanoseconds: UInt64
    /// The last moment anything drawn happened (a milestone or a span's end).
    var endNanoseconds: UInt64

    /// True when some lanes hold spans of a report that did not record their
    /// thread (lanes of spans that never overlap, not threads).
    var hasUnthreadedLanes: Bool { lanes.contains { $0.label.hasPrefix("other threads") } }

    /// Spans left out because of the cap.
    var omittedSpans: Int { totalSpans - placed.count }

    /// Lays out `timeline`, drawing at most `limit` spans: the longest ones,
    /// and every main-thread span `mustDraw` names (those with a finding) however short.
    init(timeline: LaunchTimeline, limit: Int, mustDraw: (SpanRecord) -> Bool = { _ in false }) {
        let main = timeline.mainThreadSpans
        let other = timeline.otherSpans
        totalSpans = main.count + other.count
        var drawnMain = main
        var drawnOther = other
        if totalSpans > limit {
            // The `limit` longest; a span is never shorter than one nested in it,
            // so what is kept keeps its parents (ties aside). Spans with a finding are
            // kept whatever their length, so a click on a finding always finds its span.
            var all =
                main.map { (span: $0, isMain: true, must: mustDraw($0)) }
                + other.map { (span: $0, isMain: false, must: false) }
            all.sort { ($0.must ? 1 : 0, $0.span.wallNanoseconds) > ($1.must ? 1 : 0, $1.span.wallNanoseconds) }
            let musts = all.prefix { $0.must }.count
            let kept = all.prefix(musts + max(0, limit))
            drawnMain = kept.filter(\.isMain).map(\.span).sorted { $0.beginNanoseconds < $1.beginNanoseconds }
            drawnOther = kept.filter { !$0.isMain }.map(\.span)
        }
        drawnOther.sort { ($0.beginNanoseconds, $0.depth) < ($1.beginNanoseconds, $1.depth) }

        var placed: [Placed] = []
        placed.reserveCapacity(drawnMain.count + drawnOther.count)
        var mainRows = 1
        for span in drawnMain {
            let row = max(0, span.depth)
            mainRows = max(mainRows, row + 1)
            placed.append(Placed(span: span, lane: 0, row: row))
        }

        // Other threads with an id: a lane per thread, in the order they first began a span.
        var threadLanes: [UInt64: Int] = [:]
        var threadRows: [Int] = []
        var threadLabels: [String] = []
        let names = Dictionary(timeline.threads.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        for span in drawnOther {
            guard let thread = span.threadID else { continue }
            let lane =
                threadLanes[thread]
                ?? {
                    threadLanes[thread] = threadRows.count
                    threadRows.append(1)
                    threadLabels.append(Self.laneLabel(name: names[thread].flatMap { $0 }, id: thread))
                    return threadRows.count - 1
                }()
            let row = max(0, span.depth)
            threadRows[lane] = max(threadRows[lane], row + 1)
            placed.append(Placed(span: span, lane: lane + 1, row: row))
        }

        // Spans without a thread id (older reports): outermost spans to the first free lane,
        // nested ones with their outermost span.
        var laneEnds: [UInt64] = []
        var laneRows: [Int] = []
        var roots: [(begin: UInt64, end: UInt64, lane: Int)] = []
        for span in drawnOther where span.threadID == nil {
            var lane: Int?
            if span.depth > 0 {
                lane = roots.last { $0.begin <= span.beginNanoseconds && span.endNanoseconds <= $0.end }?.lane
            }
            if lane == nil {
                let free = laneEnds.firstIndex { $0 <= span.beginNanoseconds }
                let chosen = free ?? laneEnds.count
                if free == nil {
                    laneEnds.append(0)
                    laneRows.append(1)
                }
                laneEnds[chosen] = max(laneEnds[chosen], span.endNanoseconds)
                roots.append((span.beginNanoseconds, span.endNanoseconds, chosen))
                lane = chosen
            }
            let chosen = lane!
            let row = max(0, span.depth)
            laneRows[chosen] = max(laneRows[chosen], row + 1)
            placed.append(Placed(span: span, lane: threadRows.count + chosen + 1, row: row))
        }

        let mainID = timeline.threads.first(where: \.isMain)?.id
        var lanes = [Lane(label: mainID.map { "main thread · \($0)" } ?? "main thread", rows: mainRows)]
        for (label, rows) in zip(threadLabels, threadRows) { lanes.append(Lane(label: label, rows: rows)) }
        for (index, rows) in laneRows.enumerated() {
            lanes.append(
                Lane(label: laneRows.count == 1 ? "other threads" : "other threads · \(index + 1)", rows: rows))
        }
        self.placed = placed
        self.lanes = lanes

        let milestones = timeline.milestones.values
        let begins = placed.map(\.span.beginNanoseconds)
        originNanoseconds =
            timeline.hotLaunchBeginNanoseconds ?? timeline.milestones[.spawn]
            ?? (milestones.min().map { min($0, begins.min() ?? $0) } ?? begins.min() ?? 0)
        endNanoseconds = max(milestones.max() ?? 0, placed.map(\.span.endNanoseconds).max() ?? 0, originNanoseconds)
    }

    /// A thread's lane label, short enough for the label column, its id always
    /// in full (the kernel truncates names, so several threads can share one):
    /// `worker · 4242`, `oot.utility… · 4243`, `thread 4244`.
    static func laneLabel(name: String?, id: UInt64, width: Int = 20) -> String {
        guard let name, !name.isEmpty else { return "thread \(id)" }
        let suffix = " · \(id)"
        let room = max(4, width - suffix.count)
        return (name.count > room ? name.prefix(room - 1) + "…" : name) + suffix
    }

    /// Milliseconds from the origin to `nanoseconds` (0 for a moment before it).
    func milliseconds(_ nanoseconds: UInt64) -> Double {
        nanoseconds > originNanoseconds ? Double(nanoseconds - originNanoseconds) / 1_000_000 : 0
    }

    /// How long the drawing's content lasts, milliseconds from the origin.
    var extentMs: Double { milliseconds(endNanoseconds) }
}
