import LaunchTracing

extension Finding {
    /// The finding's recommendation worded from its values: what to do, then what
    /// was measured and what was waited on. The only place a finding's advice is
    /// worded; the advisor stores it in ``recommendation`` for a report's readers.
    ///
    /// Nil when a value its rule needs is missing (a report written before the
    /// values were kept), where ``recommendation`` holds the words as written.
    public var wordedRecommendation: String? {
        if withoutHarness == true { return programRecommendation }
        switch rule {
        case .deferrableCPUWork, .slowRequiredWork:
            return cpuWorkRecommendation
        case .mainThreadDiskIO: return blockingRecommendation(.disk)
        case .mainThreadNetwork: return blockingRecommendation(.network)
        case .mainThreadLockWait: return blockingRecommendation(.lock)
        case .mainThreadSleep: return blockingRecommendation(.sleep)
        case .mainThreadProcessWait: return blockingRecommendation(.process)
        case .mainThreadIPCWait: return blockingRecommendation(.ipc)
        case .mainThreadEventWait: return blockingRecommendation(.event)
        case .mainThreadBlocked: return blockingRecommendation(.unknown)
        case .mainThreadDiskWrite: return diskWriteRecommendation
        case .hookOverBudget:
            guard let budgetMs, let runsMeasured else { return nil }
            return "\(span) takes \(Milliseconds.text(medianMs)) against its budget of \(Milliseconds.text(budgetMs)) "
                + "(median of \(runsMeasured) runs): return sooner — a hook that blocks too long gets the app killed by the watchdog"
        case .spanOverBudget:
            guard let budgetMs else { return nil }
            return
                "\(span) takes \(Milliseconds.text(medianMs)) against its budget of \(Milliseconds.text(budgetMs)): make it cheaper or move it"
        case .backgroundLaunchOverLimit:
            guard let budgetMs else { return nil }
            return "a background launch takes \(Milliseconds.text(medianMs)) to finish its hooks against a limit of "
                + "\(Milliseconds.text(budgetMs)): background execution time is short, so do only what this launch reason needs"
        }
    }

    /// The finding with ``recommendation`` worded from its values.
    var worded: Finding {
        var finding = self
        finding.recommendation = wordedRecommendation ?? recommendation
        return finding
    }

    /// The span and its call site, as the recommendations name it: `Name (File.swift:12)`.
    var place: String { "\(span) (\(Finding.short(file ?? "")):\(line ?? 0))" }

    private var cpuWorkRecommendation: String {
        let runs = "in \(runsAppeared) of \(runsTotal) runs"
        var words =
            rule == .slowRequiredWork
            ? "\(place) is needed for the first frame but spends \(Milliseconds.text(medianMs)) of CPU on the main thread \(runs): "
                + "move it off the main queue with app.runInBackground and show a placeholder, or make it cheaper (load only what the first screen shows)"
            : "defer \(place) with app.deferUntilAfterFirstFrame: it spends \(Milliseconds.text(medianMs)) of CPU on the main thread "
                + "before the first frame \(runs), and it is not listed in requiredForFirstFrame"
        if let runQueueMs {
            words +=
                "; it also waited \(Milliseconds.text(runQueueMs)) for a CPU (contention with other threads or "
                + "processes: not blocking, and not removed by moving work off the main thread)"
        }
        return words
    }

    private func blockingRecommendation(_ kind: WaitKind) -> String {
        let named = waitedOn ?? []
        let on = named.isEmpty ? "" : " (" + named.map(\.description).joined(separator: ", ") + ")"
        let measured =
            "\(Milliseconds.text(medianMs)) of the \(Milliseconds.text(spanMedianMs)) span in \(runsAppeared) of \(runsTotal) runs"
        switch kind {
        case .disk:
            return
                "move the disk I/O in \(place) off the main queue with app.runInBackground: the main thread was blocked on disk\(on) for \(measured)"
        case .network:
            return
                "move the network request in \(place) off the main queue with app.runInBackground: the main thread waited on the network\(on) for \(measured)"
        case .lock:
            return
                "move the lock/semaphore wait in \(place) off the main queue with app.runInBackground, or do not hold the lock across slow work: "
                + "the main thread waited on a lock or semaphore for \(measured)"
        case .sleep:
            return
                "remove the sleep in \(place) (or move it off the main queue with app.runInBackground): the main thread slept\(on) for \(measured)"
        case .process:
            return
                "do not wait for a child process on the main thread in \(place): start it and take its result off the main queue "
                + "with app.runInBackground; the main thread waited for \(named.isEmpty ? "a child process" : named.map(\.description).joined(separator: ", ")) for \(measured)"
        case .ipc:
            return
                "move the pipe or local-socket exchange in \(place) off the main queue with app.runInBackground: the main thread waited on "
                + "\(named.isEmpty ? "a pipe or local socket" : named.map(\.description).joined(separator: ", ")) for \(measured)"
        case .event:
            return
                "do not run an event loop (poll, epoll, select) on the main thread in \(place) before the first frame: wait on it off the main "
                + "queue with app.runInBackground; the main thread waited in one\(on) for \(measured)"
        case .other, .unknown:
            return
                "find and move the blocking call in \(place) off the main queue with app.runInBackground: the main thread was off the CPU, "
                + "blocked on something the sampler could not name\(on), for \(measured) (a wait shorter than the sampling period, "
                + "or a call it does not know)"
        }
    }

    private var diskWriteRecommendation: String? {
        guard let writeCalls, let filesWritten else { return nil }
        let shown = (waitedOn ?? []).map(\.name)
        let files =
            shown.joined(separator: ", ")
            + (filesWritten > shown.count ? " and \(filesWritten - shown.count) more" : "")
        let site = file == nil ? "the main thread, outside any span," : place
        return "move the write off the main thread with app.runInBackground, or defer it with "
            + "app.deferUntilAfterFirstFrame: \(site) wrote \(files) synchronously before the first frame "
            + "(\(writeCalls.joined(separator: ", ")); seen in \(runsAppeared) of \(runsTotal) runs). It cost "
            + "\(Milliseconds.text(medianMs)) here, but the same call can take tens of milliseconds on a phone's flash "
            + "or a loaded CI disk"
    }
}
