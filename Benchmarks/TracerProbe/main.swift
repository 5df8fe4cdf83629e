// A small probe of the tracer outside the benchmark harness (see tracer-probe.sh):
//
//   tracer-probe flush COUNT accounted|plain PATH   records COUNT spans on the main thread
//       (on a manual clock: spans of 45 µs, 1 µs apart, as the benchmark's flush row) and
//       flushes them to PATH; run under callgrind with the flush toggled, its instructions.
//   tracer-probe fresh COUNT THREADS    COUNT spans on each of THREADS fresh threads, on memory
//       the process never touched (no reset, so no recycled chunks), against two floors on
//       the same thread: two tick reads and a 16-byte store into warm memory, and the same
//       bytes as the events into fresh memory; prints per-thread ns and medians.
//   tracer-probe first      the latency of a process's first event (ns) and the resident
//       memory a process that records 10 events grows by (bytes).
//   tracer-probe harness    an app that does nothing, launched by LaunchHarness and ended at
//       its first frame: run under callgrind with LAUNCHPROF_COUNT_INSTRUCTIONS=1, the
//       harness's own instructions from `main` to `willFinishLaunching`.
import Foundation
import LaunchHarness
import LaunchTracing
import _LaunchTracingShims

/// An app whose hooks do nothing: what the harness costs on its own.
final class NothingDelegate: LaunchDelegate {
    required init() {}
}

struct TickPair {
    var begin: UInt64
    var end: UInt64
}

/// An event-sized store: the same bytes as the tracer writes.
struct EventBytes {
    var begin: UInt64
    var end: UInt64
    var rest: (UInt64, UInt64) = (0, 0)
}

func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

final class Times: @unchecked Sendable {
    var spans: UInt64 = 0
    var warm: UInt64 = 0
    var fresh: UInt64 = 0
}

let arguments = CommandLine.arguments
switch arguments.count > 1 ? arguments[1] : "" {
case "flush":
    let count = Int(arguments[2])!
    let accounted = arguments[3] == "accounted"
    lp_tick_source_set(Int32(LP_TICK_SOURCE_MANUAL.rawValue))
    LaunchTracer.setResourceAccounting(accounted)
    var now: UInt64 = 1_000_000_000
    for _ in 0..<count {
        lp_manual_set(now)
        let span = LaunchTracer.begin("Accounted", category: .compute)
        now += 45_000
        lp_manual_set(now)
        span.end()
        now += 1_000
    }
    LaunchTracer.setResourceAccounting(false)
    try LaunchTracer.flush(to: arguments[4])
case "fresh":
    let count = Int(arguments[2])!
    let threads = Int(arguments[3])!
    let eventSize = MemoryLayout<lp_event>.size
    var ratios: [Double] = []
    var freshRatios: [Double] = []
    var spanNs: [Double] = []
    var warmNs: [Double] = []
    var freshNs: [Double] = []
    for _ in 0..<threads {
        let times = Times()
        let done = DispatchSemaphore(value: 0)
        // Fresh memory for the fresh floor, as many bytes as the events take.
        let bytes = count * eventSize
        let region = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
        let address = UInt(bitPattern: region)
        Thread {
            let region = UnsafeMutableRawPointer(bitPattern: address)!
            var warm = [TickPair](repeating: TickPair(begin: 0, end: 0), count: count)
            var start = lp_monotonic_ns()
            for _ in 0..<count { LaunchTracer.begin("Span").end() }
            times.spans = lp_monotonic_ns() - start
            warm.withUnsafeMutableBufferPointer { buffer in
                start = lp_monotonic_ns()
                for index in 0..<count {
                    let begin = lp_cpu_counter()
                    buffer[index] = TickPair(begin: begin, end: lp_cpu_counter())
                }
                times.warm = lp_monotonic_ns() - start
            }
            start = lp_monotonic_ns()
            for index in 0..<count {
                let begin = lp_cpu_counter()
                let slot = region + index * eventSize
                slot.storeBytes(of: TickPair(begin: begin, end: lp_cpu_counter()), as: TickPair.self)
                if eventSize > 16 { slot.storeBytes(of: (begin, begin), toByteOffset: 16, as: (UInt64, UInt64).self) }
                if eventSize > 32 { slot.storeBytes(of: (begin, begin), toByteOffset: 32, as: (UInt64, UInt64).self) }
            }
            times.fresh = lp_monotonic_ns() - start
            done.signal()
        }.start()
        done.wait()
        munmap(region, bytes)
        spanNs.append(Double(times.spans) / Double(count))
        warmNs.append(Double(times.warm) / Double(count))
        freshNs.append(Double(times.fresh) / Double(count))
        ratios.append(Double(times.spans) / Double(max(1, times.warm)))
        freshRatios.append(Double(times.spans) / Double(max(1, times.fresh)))
    }
    print(
        String(
            format: "count %d threads %d event %d B: span %.1f ns, warm floor %.1f ns, fresh floor %.1f ns;"
                + " median span/warm %.2f x, span/fresh %.2f x",
            count, threads, eventSize, median(spanNs), median(warmNs), median(freshNs), median(ratios),
            median(freshRatios)))
case "first":
    let before = residentBytes()
    let start = lp_monotonic_ns()
    LaunchTracer.instant("First")
    let first = lp_monotonic_ns() - start
    for _ in 0..<9 { LaunchTracer.instant("Next") }
    usleep(20_000)  // anything the tracer does off this thread settles
    let after = residentBytes()
    print("first event \(first) ns, resident growth of 10 events \(after - before) bytes")
case "harness":
    LaunchApplication.main(delegate: NothingDelegate.self, exitAfterLaunch: true)
default:
    print("usage: tracer-probe flush COUNT accounted|plain PATH | fresh COUNT THREADS | first | harness")
    exit(2)
}
