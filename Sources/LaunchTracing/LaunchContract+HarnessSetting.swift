extension LaunchContract {
    /// A variable of the contract that tunes LaunchHarness and that a user may set
    /// by hand (in the shell that runs `launchprof`, or for a program run alone),
    /// with the values it accepts.
    ///
    /// The harness refuses a value outside them and exits before launch; `launchprof`
    /// checks the variables its launches inherit against the same rules before the
    /// first launch, so a bad value stops it with one line instead of failing every
    /// launch and replacing the last report with an empty one.
    ///
    /// ```swift
    /// LaunchContract.HarnessSetting.sampler.problem(with: "sometimes")
    /// // "LAUNCHPROF_SAMPLER=sometimes: expected 0 (off), switches (…) or periodic"
    /// LaunchContract.HarnessSetting.grace.wholeNumber("250")  // 250
    /// ```
    public struct HarnessSetting: Sendable {
        /// The variable's name.
        public let name: String
        /// What it accepts, as a message says it (after "expected").
        public let expected: String
        /// The whole numbers it accepts, when it takes one.
        public let range: ClosedRange<Int>?
        /// The words it accepts, when it takes words. An array, not a set: a `Set<String>` made
        /// at the harness's start costs the launch a search of every loaded library's protocol
        /// conformances (0.18 ms on a 2-core virtual machine: Benchmarks/RESULTS.md), for four words.
        private let words: [String]

        private init(name: String, words: [String], expected: String) {
            (self.name, self.words, self.expected, self.range) = (name, words, expected, nil)
        }

        private init(name: String, range: ClosedRange<Int>) {
            self.name = name
            self.words = []
            self.range = range
            self.expected = "a whole number from \(range.lowerBound) to \(range.upperBound)"
        }

        /// `value` as the whole number the setting takes: nil when it takes words, or
        /// `value` is not a whole number in ``range``.
        public func wholeNumber(_ value: String) -> Int? {
            guard let range, let number = Int(value), range.contains(number) else { return nil }
            return number
        }

        /// Whether the harness accepts `value`. An empty value counts as unset, and is accepted.
        public func accepts(_ value: String) -> Bool {
            value.isEmpty || (range == nil ? words.contains(value) : wholeNumber(value) != nil)
        }

        /// One line naming the variable, `value` and what it accepts; nil when it accepts `value`.
        public func problem(with value: String) -> String? {
            accepts(value) ? nil : "\(name)=\(value): expected \(expected)"
        }

        /// ``Variable/sampler``: `0` (off), `1` or `switches` (the default), `periodic`.
        public static let sampler = HarnessSetting(
            name: Variable.sampler, words: ["0", "1", "switches", "periodic"],
            expected: "0 (off), switches (the default: samples once the main thread blocks) or periodic")
        /// ``Variable/sampleInterval``, microseconds.
        public static let sampleInterval = HarnessSetting(name: Variable.sampleInterval, range: 100...1_000_000)
        /// ``Variable/grace``, milliseconds.
        public static let grace = HarnessSetting(name: Variable.grace, range: 0...3_600_000)
        /// ``Variable/hotLaunches``.
        public static let hotLaunches = HarnessSetting(name: Variable.hotLaunches, range: 0...100_000)

        /// ``Variable/readyDescriptor``: set by `launchprof` (never inherited), checked by the harness all the same.
        package static let readyDescriptor = HarnessSetting(name: Variable.readyDescriptor, range: 0...65_535)

        /// The settings a user may set by hand, which `launchprof` checks in the environment its
        /// launches inherit. ``hotLaunches`` is not among them: `launchprof` always sets it itself.
        public static let all: [HarnessSetting] = [sampler, sampleInterval, grace]
    }
}
