/// What an interleaved comparison session collected: each side's launches,
/// and how many of its planned stages were run to the end.
public struct ComparedLaunches: Sendable, Equatable {
    /// The base program's launches.
    public var base: CollectedLaunches
    /// The head program's launches.
    public var head: CollectedLaunches
    /// Stages completed (each ended with a look at the data); 0 when the
    /// session stopped before the first stage's launches were made.
    public var stagesRun: Int

    /// Makes a collection of both sides.
    public init(base: CollectedLaunches, head: CollectedLaunches, stagesRun: Int) {
        self.base = base
        self.head = head
        self.stagesRun = stagesRun
    }
}
