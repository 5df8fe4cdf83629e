import LaunchTracing

extension LaunchTimeline {
    /// Splits a trace into launches and builds each one's timeline.
    ///
    /// The main thread is the one that ran the launch hooks (the thread of the
    /// `willFinishLaunching.begin` mark), so traces from unit tests and from apps
    /// work alike. Launch k begins at the k-th `willFinishLaunching.begin` (hot
    /// launches); the first launch also owns spawn, runtimeInit and main. A trace
    /// with no launch hooks (an app that uses the tracer alone) is one launch on
    /// the process's main thread, with whichever milestones it marked.
    public static func build(from trace: Trace) -> [LaunchTimeline] {
        let marks = trace.threads.flatMap { thread in
            thread.events.filter { $0.kind == .mark }.map { (thread: thread.index, event: $0) }
        }.sorted { $0.event.beginNanoseconds < $1.event.beginNanoseconds }
        let willBegins = marks.filter { $0.event.category == Milestone.willFinishLaunchingBegin.rawValue }
        guard
            let mainIndex = willBegins.first?.thread
                ?? (trace.threads.first { $0.isMain } ?? trace.threads.first)?.index,
            let mainThread = trace.threads.first(where: { $0.index == mainIndex })
        else { return [] }
        let options = trace.launchOptions
        let isBackground = options?.isBackground ?? false
        let hotLaunchName = LaunchContract.hotLaunchInstant.description

        // Launch boundaries: a hot launch starts at its hotLaunch instant, or its willFinish.begin.
        var starts: [UInt64] = willBegins.isEmpty ? [0] : willBegins.map(\.event.beginNanoseconds)
        let hotStarts = mainThread.events.filter { $0.kind == .instant && trace.name(of: $0) == hotLaunchName }
            .map(\.beginNanoseconds).sorted()
        for index in starts.indices.dropFirst() {
            // The last hotLaunch instant in (previous start, this start]: binary search.
            let after = firstPosition(hotStarts.count, notBelow: starts[index] &+ 1) { hotStarts[$0] }
            if after > 0, hotStarts[after - 1] > starts[index - 1] { starts[index] = hotStarts[after - 1] }
        }

        let filePaths = Dictionary(
            trace.filePaths.map { (trace.string($0.key), trace.string($0.value)) },
            uniquingKeysWith: { first, _ in first })
        // Each thread's spans are ordered once; each launch takes its share by binary search.
        let mainSamples = trace.samples.filter { $0.osThreadID == mainThread.osThreadID }.sorted {
            $0.nanoseconds < $1.nanoseconds
        }
        // File writes are told by their system call's number on the machine the trace was sampled on.
        let mainAccountant = SpanAccountant(
            trace: trace, thread: mainThread, samples: mainSamples,
            fileWriteCalls: SampledArchitecture(trace)?.fileWriteCalls ?? [:])
        let otherAccountants = trace.threads.filter { $0.index != mainIndex }.map {
            SpanAccountant(trace: trace, thread: $0, samples: [])
        }
        var timelines: [LaunchTimeline] = []
        timelines.reserveCapacity(starts.count)
        for (launch, start) in starts.enumerated() {
            let lowerBound = launch == 0 ? 0 : start
            let upperBound = launch + 1 < starts.count ? starts[launch + 1] : UInt64.max
            var milestones: [Milestone: UInt64] = [:]
            var markPosition = firstPosition(marks.count, notBelow: lowerBound) { marks[$0].event.beginNanoseconds }
            while markPosition < marks.count, marks[markPosition].event.beginNanoseconds < upperBound {
                let mark = marks[markPosition]
                let milestone = Milestone(rawValue: mark.event.category)
                if milestones[milestone] == nil { milestones[milestone] = mark.event.beginNanoseconds }
                markPosition += 1
            }
            var hotBegin: UInt64?
            if launch == 0 {
                if let spawn = trace.spawn { milestones[.spawn] = spawn.nanoseconds }
                milestones[.runtimeInit] = trace.runtimeInitNanoseconds
            } else {
                hotBegin = start
            }
            let firstFrame = milestones[.firstFrame] ?? milestones[.didFinishLaunchingEnd] ?? upperBound
            let (main, fileWrites, gaps) = mainAccountant.account(
                from: lowerBound, to: upperBound, firstFrame: firstFrame)
            var others: [SpanRecord] = []
            var threadsWithSpans: Set<UInt64> = []
            for accountant in otherAccountants {
                let records = accountant.records(from: lowerBound, to: upperBound, firstFrame: firstFrame)
                if !records.isEmpty { threadsWithSpans.insert(accountant.thread.osThreadID) }
                others += records
            }
            let firstSample = firstPosition(mainSamples.count, notBelow: lowerBound) { mainSamples[$0].nanoseconds }
            let endSample = max(
                firstSample, firstPosition(mainSamples.count, notBelow: upperBound) { mainSamples[$0].nanoseconds })
            let sampleCount = endSample - firstSample
            let threads =
                [mainThread]
                + trace.threads.filter { thread in
                    thread.index != mainIndex && threadsWithSpans.contains(thread.osThreadID)
                }
            timelines.append(
                LaunchTimeline(
                    launchIndex: launch, milestones: milestones, hotLaunchBeginNanoseconds: hotBegin,
                    phases: phases(milestones, hotLaunchBegin: hotBegin, background: isBackground),
                    mainThreadSpans: main, otherSpans: others.sorted { $0.beginNanoseconds < $1.beginNanoseconds },
                    launchOptions: options, spawnIsApproximate: trace.spawn?.isApproximate ?? true,
                    sampleCount: sampleCount, droppedEvents: trace.droppedCount, filePaths: filePaths,
                    threads: threads.map {
                        TimelineThread(id: $0.osThreadID, name: $0.name, isMain: $0.index == mainIndex)
                    }))
            timelines[timelines.count - 1].mainThreadFileWrites = fileWrites
            timelines[timelines.count - 1].mainThreadGaps = sampleCount > 0 ? gaps : nil
        }
        return timelines
    }

    /// The first position in `count` sorted items whose key is not below `bound` (binary search).
    static func firstPosition(_ count: Int, notBelow bound: UInt64, key: (Int) -> UInt64) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if key(middle) < bound { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Every phase whose two milestones exist.
    static func phases(_ m: [Milestone: UInt64], hotLaunchBegin: UInt64?, background: Bool) -> [Phase: UInt64] {
        func between(_ from: Milestone, _ to: Milestone) -> UInt64? {
            guard let a = m[from], let b = m[to], b >= a else { return nil }
            return b - a
        }
        var phases: [Phase: UInt64] = [:]
        phases[.loader] = between(.spawn, .runtimeInit)
        phases[.staticInit] = between(.runtimeInit, .main)
        phases[.appInit] = between(.main, .willFinishLaunchingBegin)
        phases[.willFinishLaunching] = between(.willFinishLaunchingBegin, .willFinishLaunchingEnd)
        phases[.didFinishLaunching] = between(.didFinishLaunchingBegin, .didFinishLaunchingEnd)
        phases[.initialFrame] = between(.didFinishLaunchingEnd, .firstFrame)
        phases[.extended] = between(.firstFrame, .fullyDrawn)
        // Totals run from the spawn, or for a hot launch from where it began.
        func since(_ end: Milestone) -> UInt64? {
            guard let begin = hotLaunchBegin else { return between(.spawn, end) }
            guard let time = m[end], time >= begin else { return nil }
            return time - begin
        }
        phases[.timeToFirstFrame] = since(.firstFrame)
        phases[.timeToFullyDrawn] = since(.fullyDrawn)
        if background { phases[.timeToBackgroundReady] = since(.didFinishLaunchingEnd) }
        return phases
    }
}
