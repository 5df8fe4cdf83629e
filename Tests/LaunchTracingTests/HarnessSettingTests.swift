import LaunchTracing
import Testing

/// The harness's settings a user may set by hand: the one set of rules the harness
/// and `launchprof` both check values against.
@Suite("Harness settings")
struct HarnessSettingTests {
    typealias Setting = LaunchContract.HarnessSetting

    @Test func theSamplerTakesItsWordsAndNothingElse() {
        for word in ["0", "1", "switches", "periodic", ""] { #expect(Setting.sampler.accepts(word), "\(word)") }
        for word in ["bogus", "Periodic", " 0", "2"] {
            #expect(
                Setting.sampler.problem(with: word)
                    == "LAUNCHPROF_SAMPLER=\(word): expected \(Setting.sampler.expected)")
        }
        #expect(Setting.sampler.wholeNumber("0") == nil)
    }

    @Test func wholeNumbersAreCheckedAgainstTheirRange() throws {
        let grace = Setting.grace
        #expect(grace.wholeNumber("0") == 0)
        #expect(grace.wholeNumber("3600000") == 3_600_000)
        #expect(grace.wholeNumber("3600001") == nil)
        #expect(grace.wholeNumber("-1") == nil)
        #expect(grace.wholeNumber("1.5") == nil)
        #expect(grace.problem(with: "soon") == "LAUNCHPROF_GRACE_MS=soon: expected a whole number from 0 to 3600000")
        #expect(Setting.sampleInterval.problem(with: "99") != nil)
        #expect(Setting.sampleInterval.problem(with: "100") == nil)
        #expect(Setting.hotLaunches.problem(with: "100001") != nil)
    }

    @Test func everySettingIsAVariableOfItsOwnThatLaunchprofDoesNotSet() {
        #expect(Set(Setting.all.map(\.name)).count == Setting.all.count)
        #expect(Setting.all.allSatisfy { !LaunchContract.Variable.reservedByLauncher.contains($0.name) })
    }
}
