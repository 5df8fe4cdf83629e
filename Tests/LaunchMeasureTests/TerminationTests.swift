import LaunchMeasure
import Testing

@Suite("Termination")
struct TerminationTests {
    @Test("descriptions name the code or the signal")
    func descriptions() {
        #expect(Termination.exited(code: 3).description == "exited with code 3")
        #expect(Termination.signaled(signal: 11).description == "killed by signal 11 (SIGSEGV)")
        #expect(Termination.signaled(signal: 6).description == "killed by signal 6 (SIGABRT)")
        #expect(Termination.signaled(signal: 63).description == "killed by signal 63")
        #expect(Termination.timedOut.description == "timed out")
        #expect(Termination.stoppedAtReady.description == "stopped at ready")
    }

}
