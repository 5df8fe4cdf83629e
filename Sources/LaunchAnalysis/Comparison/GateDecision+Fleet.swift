// The regression gate across machines: one metric's statistics stratified by machine.

extension GateDecision {
    /// The machine key of every value of one metric, parallel to its `baseMs` and
    /// `headMs`: what a fleet comparison groups launches by.
    ///
    /// ```swift
    /// let machines = GateDecision.Machines(base: ["ci-a", "ci-a", "ci-b"], head: ["ci-a", "ci-b", "ci-b"])
    /// ```
    public struct Machines: Sendable, Equatable {
        /// The machine of each base value.
        public var base: [String]
        /// The machine of each head value.
        public var head: [String]

        /// Machines for the base and head values, in the same order as the values.
        public init(base: [String], head: [String]) {
            self.base = base
            self.head = head
        }
    }
}

extension GateDecision.Statistics {
    /// A metric's statistics stratified by machine.
    ///
    /// Values that are not finite are left out, as on one machine; a machine
    /// with values on one side only is left out and listed. Each machine taking part
    /// carries its own shape check (``FleetComparison/Machine/shape``). With two or more
    /// machines taking part: van Elteren's tests of the gate's claims, the median of
    /// the within-machine differences of log values, van Elteren's test inverted for
    /// its interval (``RankStatistics/vanElterenInterval(_:alpha:)``), and U the sum of
    /// the machines' own U. With one machine: that machine's single-machine
    /// statistics. The base median is that of the base values of the machines
    /// taking part.
    init(
        baseMs: [Double], headMs: [Double], machines: GateDecision.Machines, settings: GateSettings, floorShare: Double
    ) {
        precondition(
            machines.base.count == baseMs.count && machines.head.count == headMs.count,
            "a machine for every value: \(machines.base.count) for \(baseMs.count) base, \(machines.head.count) for \(headMs.count) head"
        )
        var order: [String] = []
        var base: [String: [Double]] = [:]
        var head: [String: [Double]] = [:]
        for (value, machine) in zip(baseMs, machines.base) where value.isFinite {
            if base[machine] == nil, head[machine] == nil { order.append(machine) }
            base[machine, default: []].append(value)
        }
        for (value, machine) in zip(headMs, machines.head) where value.isFinite {
            if base[machine] == nil, head[machine] == nil { order.append(machine) }
            head[machine, default: []].append(value)
        }
        let taking = order.filter { base[$0] != nil && head[$0] != nil }
        let leftOut = order.filter { base[$0] == nil || head[$0] == nil }.map { machine in
            base[machine].map { FleetComparison.LeftOut(machine: machine, side: .base, launches: $0.count) }
                ?? FleetComparison.LeftOut(machine: machine, side: .head, launches: head[machine]?.count ?? 0)
        }
        let owns = taking.map {
            GateDecision.Statistics(baseMs: base[$0]!, headMs: head[$0]!, settings: settings, floorShare: floorShare)
        }
        let shifts = zip(taking, owns).map { machine, own in
            FleetComparison.Machine(
                machine: machine, baseCount: base[machine]!.count, headCount: head[machine]!.count,
                baseMedianMs: own.baseMedianMs, headMedianMs: Summary.median(head[machine]!),
                shiftMs: own.baseMedianMs * (Platform.exponential(own.shift) - 1),
                shiftPercent: 100 * (Platform.exponential(own.shift) - 1),
                shape: ShapeCheck(baseMs: base[machine]!, headMs: head[machine]!))
        }
        if owns.count == 1 {
            self = owns[0]
            fleet = FleetComparison(
                test: .mannWhitney, statistic: nil, z: nil, resamples: 0, seed: 0, machines: shifts, leftOut: leftOut)
            return
        }
        let strata = taking.map { machine in
            RankStatistics.Stratum(
                head: head[machine]!.map(GateDecision.logarithm), base: base[machine]!.map(GateDecision.logarithm))
        }
        self.init(baseMs: [], headMs: [], settings: settings, floorShare: floorShare)
        let pooledBase = taking.flatMap { base[$0]! }
        baseMedianMs = pooledBase.isEmpty ? .nan : Summary.median(pooledBase)
        effect = settings.minimumEffectRatio(baseMedianMs: baseMedianMs, floorShare: floorShare)
        let e = GateDecision.logEffect(effect)
        let greater = RankStatistics.vanElteren(strata, alternative: .greater)
        shift = RankStatistics.stratifiedShift(strata)
        interval = { RankStatistics.vanElterenInterval(strata, alpha: $0) }
        u = strata.reduce(0) { $0 + RankStatistics.mannWhitneyU(head: $1.head, base: $1.base) }
        pGreater = strata.isEmpty ? 1 : greater.pValue
        pRegression =
            strata.isEmpty || !e.isFinite
            ? 1 : RankStatistics.vanElteren(strata, alternative: .greater, shift: e).pValue
        pImprovement =
            strata.isEmpty || !e.isFinite ? 1 : RankStatistics.vanElteren(strata, alternative: .less, shift: -e).pValue
        pPass =
            strata.isEmpty
            ? 1 : !e.isFinite ? 0 : RankStatistics.vanElteren(strata, alternative: .less, shift: e).pValue
        methods = (.asymptotic, .asymptotic, .asymptotic)
        fleet = FleetComparison(
            test: .vanElteren, statistic: greater.statistic, z: greater.z, resamples: 0,
            seed: 0, machines: shifts, leftOut: leftOut)
        let pooledHead = taking.flatMap { head[$0]! }
        if !pooledHead.isEmpty, !(baseMedianMs >= GateDecision.smallestMs) {
            useAbsoluteTest(headMs: pooledHead, floorMs: settings.absoluteFloorMs(floorShare: floorShare))
        }
    }
}
