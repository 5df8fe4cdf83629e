import LaunchMeasure
import Testing

@Suite("FileCache")
struct FileCacheTests {
    /// Without root or with a read-only /proc/sys it must refuse with
    /// `coldModeNeedsRoot`; as root on a writable /proc/sys it succeeds.
    @Test("dropAll succeeds or says cold mode needs root, naming the control file")
    func dropAll() {
        do {
            try FileCache.dropAll()
        } catch {
            guard case .coldModeNeedsRoot(let path, let code) = error else {
                Issue.record("unexpected error: \(error)")
                return
            }
            #expect(path == FileCache.controlPath)
            #expect(code != 0)
            #expect(error.description.contains("/proc/sys/vm/drop_caches"))
        }
    }
}
