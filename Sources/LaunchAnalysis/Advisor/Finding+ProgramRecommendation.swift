import LaunchTracing

extension Finding {
    /// The recommendation for a program that does not use LaunchHarness (a server,
    /// a command-line tool, an app that links the tracer alone): in terms of its
    /// startup and its ready moment, with what it can do with what it links —
    /// take work off the startup path (after ready, or lazily on first use), start it
    /// concurrently with the rest of startup, make it cheaper. No harness API, and
    /// no sampler: none runs without the harness, so a wait is not named.
    var programRecommendation: String? {
        let runs = "in \(runsAppeared) of \(runsTotal) runs"
        let measured =
            "\(Milliseconds.text(medianMs)) of the \(Milliseconds.text(spanMedianMs)) span \(runs)"
        let named = waitedOn ?? []
        let on = named.isEmpty ? "" : " (" + named.map(\.description).joined(separator: ", ") + ")"
        let offThePath =
            "take it off the startup path (do it after ready, or lazily on first use) or start it concurrently with the rest of startup"
        switch rule {
        case .deferrableCPUWork:
            return "\(place) spends \(Milliseconds.text(medianMs)) of CPU on the main thread before ready \(runs): "
                + "if ready does not need its result, \(offThePath); otherwise make it cheaper" + contention
        case .slowRequiredWork:
            return
                "\(place) is needed before ready and spends \(Milliseconds.text(medianMs)) of CPU on the main thread "
                + "\(runs): start it concurrently with the rest of startup, or make it cheaper (do only what ready needs)"
                + contention
        case .mainThreadDiskIO:
            return "the disk I/O in \(place) held startup for \(measured)\(on): \(offThePath)"
        case .mainThreadNetwork:
            return "the network wait in \(place) held startup for \(measured)\(on): connect concurrently with the rest "
                + "of startup, or lazily on first use, rather than before ready"
        case .mainThreadLockWait:
            return "the lock or semaphore wait in \(place) held startup for \(measured): do not hold the lock across "
                + "slow work, or \(offThePath)"
        case .mainThreadSleep:
            return "remove the sleep in \(place): startup slept\(on) for \(measured)"
        case .mainThreadProcessWait:
            return
                "the wait for \(named.isEmpty ? "a child process" : named.map(\.description).joined(separator: ", ")) "
                + "in \(place) held startup for \(measured): start it and collect its result concurrently, after ready if ready does not need it"
        case .mainThreadIPCWait:
            return
                "the wait on \(named.isEmpty ? "a pipe or local socket" : named.map(\.description).joined(separator: ", ")) "
                + "in \(place) held startup for \(measured): \(offThePath)"
        case .mainThreadEventWait:
            return "an event loop (poll, epoll, select) in \(place) held startup for \(measured)\(on): wait on it "
                + "concurrently, and mark ready before the loop that serves"
        case .mainThreadBlocked:
            return
                "\(place) waited off the CPU for \(measured) before ready (a sleep, a lock, I/O: LaunchTracing alone "
                + "does not tell which): \(offThePath)"
        case .mainThreadDiskWrite:
            guard let writeCalls, let filesWritten else { return nil }
            let shown = named.map(\.name)
            let files =
                shown.joined(separator: ", ")
                + (filesWritten > shown.count ? " and \(filesWritten - shown.count) more" : "")
            let site = file == nil ? "the main thread, outside any span," : place
            return "\(site) wrote \(files) synchronously before ready (\(writeCalls.joined(separator: ", ")); "
                + "seen \(runs)), which cost \(Milliseconds.text(medianMs)) here and more on a loaded disk: "
                + "write it after ready, or concurrently with the rest of startup"
        case .spanOverBudget:
            guard let budgetMs else { return nil }
            return "\(span) takes \(Milliseconds.text(medianMs)) against its budget of \(Milliseconds.text(budgetMs)): "
                + "make it cheaper, or \(offThePath)"
        case .hookOverBudget, .backgroundLaunchOverLimit:
            guard let budgetMs else { return nil }
            return "\(span) takes \(Milliseconds.text(medianMs)) against its budget of \(Milliseconds.text(budgetMs))"
        }
    }

    /// The run-queue note of a CPU finding, when the span waited for a CPU.
    private var contention: String {
        guard let runQueueMs else { return "" }
        return "; it also waited \(Milliseconds.text(runQueueMs)) for a CPU (contention with other threads or "
            + "processes: not removed by moving the work)"
    }
}
