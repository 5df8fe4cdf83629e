import LaunchAnalysis
import LaunchTracing

/// A typed option, declared once beside the code that reads it: its table entry
/// (name, placeholder, help, the default the help shows) and how its text becomes
/// a `Value`. Read as `try parsed[Self.runs]`: the given value, else the declared
/// default; a bad one is a ``UsageError`` that names the option and the text.
///
/// ```swift
/// static let rounds = Option<Int>.wholeNumber("--rounds", "N", "A/A comparisons", in: 1...100, default: 3)
/// let rounds = try parsed[rounds]   // 3 when left out; "--rounds takes a whole number from 1 to 100, not 'x'"
/// ```
///
/// An option whose default is worked out from other values (none in the table)
/// is an ``Option`` without one: reading it gives nil when it was left out.
struct Option<Value>: Sendable {
    /// The table entry the parser and the help take.
    let spec: OptionSpec
    /// The value of a given (or the default) text.
    let convert: @Sendable (String) throws(UsageError) -> Value

    /// The option's name, such as `--runs`.
    var name: String { spec.name }
}

/// An ``Option`` with a default: reading it always gives a value. The default is
/// kept as the text the help shows and is read the way a given value is, so the
/// two cannot disagree (`OptionDefaultsTests` reads every declared default).
struct DefaultedOption<Value>: Sendable {
    /// The option, whose spec holds the default's text (which its help shows).
    let option: Option<Value>
    /// The default, as text: what the option takes when left out.
    let defaultText: String

    /// `option` with the default its spec declares (the text its help shows; the spec must declare one).
    init(option: Option<Value>) {
        self.option = option
        self.defaultText = option.spec.defaultValue ?? ""
    }

    /// The table entry the parser and the help take.
    var spec: OptionSpec { option.spec }
}

extension Arguments {
    /// The value of `option` when it was given; nil when it was left out.
    subscript<Value>(option: Option<Value>) -> Value? {
        get throws(UsageError) {
            guard let text = value(option.name) else { return nil }
            return try option.convert(text)
        }
    }

    /// Whether the option named `name` was given (a value or a flag).
    func isGiven(_ name: String) -> Bool { value(name) != nil || has(name) }

    /// The text given for `option`, as written; nil when it was left out.
    func givenText<Value>(_ option: Option<Value>) -> String? { value(option.name) }

    /// The value of `option`, its default when it was left out.
    subscript<Value>(option: DefaultedOption<Value>) -> Value {
        get throws(UsageError) {
            try option.option.convert(value(option.option.name) ?? option.defaultText)
        }
    }
}

// MARK: Kinds of value

extension Option where Value == String {
    /// Any text, checked by the code that reads it.
    static func text(_ name: String, _ placeholder: String, _ help: String) -> Self {
        Self(spec: .value(name, placeholder, help)) { text throws(UsageError) in text }
    }
}

extension Option where Value == Int {
    /// A whole number in `range`.
    static func wholeNumber(_ name: String, _ placeholder: String, _ help: String, in range: ClosedRange<Int>) -> Self {
        Self(spec: .value(name, placeholder, help, type: .wholeNumber(range))) { text throws(UsageError) in
            guard let number = Int(text), range.contains(number) else {
                let upper = range.upperBound == Int.max ? "" : " to \(range.upperBound)"
                throw UsageError("\(name) takes a whole number from \(range.lowerBound)\(upper), not '\(text)'")
            }
            return number
        }
    }
}

extension DefaultedOption where Value == Int {
    /// A whole number in `range`, `defaultValue` when left out (which the help shows).
    static func wholeNumber(
        _ name: String, _ placeholder: String, _ help: String, in range: ClosedRange<Int>, default defaultValue: Int
    ) -> Self {
        let option = Option<Int>.wholeNumber(name, placeholder, help, in: range)
        return Self(
            option: Option(
                spec: .value(name, placeholder, help, type: .wholeNumber(range), default: "\(defaultValue)"),
                convert: option.convert))
    }
}

extension DefaultedOption where Value == Double {
    /// Seconds in `0.001...86400` as a plain decimal, `defaultValue` when left out;
    /// the help shows `shownDefault` (else the default).
    static func seconds(
        _ name: String, _ placeholder: String, _ help: String, default defaultValue: Double, shownDefault: String? = nil
    ) -> Self {
        let limit = Arguments.maximumSeconds
        let option = Option<Double>(
            spec: .value(
                name, placeholder, help, type: .seconds, default: DecimalText.plain(defaultValue),
                shownDefault: shownDefault)
        ) { text throws(UsageError) in
            guard let number = DecimalNumber.parse(text, in: 0.001...limit) else {
                throw UsageError(
                    "\(name) takes seconds \(DecimalNumber.rangeText(0.001, limit, unit: "(one day)")) "
                        + "as a plain decimal such as 20 or 2.5, not '\(text)'")
            }
            return number
        }
        return Self(option: option)
    }
}

extension Option where Value == Double {
    /// Milliseconds in `0.001...LaunchBudget.maximumMilliseconds` (from 0 when
    /// `allowingZero`), a plain decimal; the help shows `shownDefault` when given
    /// (a default that another source can override, such as a budget file's).
    static func milliseconds(
        _ name: String, _ placeholder: String, _ help: String, allowingZero: Bool = false, shownDefault: String? = nil
    ) -> Self {
        let lower = allowingZero ? 0 : Arguments.smallestMilliseconds
        let limit = LaunchBudget.maximumMilliseconds
        return Self(spec: .value(name, placeholder, help, shownDefault: shownDefault)) { text throws(UsageError) in
            guard let number = DecimalNumber.parse(text, in: lower...limit) else {
                throw UsageError(
                    "\(name) takes milliseconds \(DecimalNumber.rangeText(lower, limit, unit: "(one hour)")) "
                        + "as a plain decimal such as 250 or 12.5, not '\(text)'")
            }
            return number
        }
    }

    /// A percentage, `5%` or `5`, within `range` (`above0`: the lower end excluded),
    /// given as a value in percent; the help shows `shownDefault` when given.
    static func percent(
        _ name: String, _ help: String, in range: ClosedRange<Double>, excludingLower: Bool = false,
        example: String, shownDefault: String? = nil
    ) -> Self {
        Self(spec: .value(name, "PERCENT", help, shownDefault: shownDefault)) { text throws(UsageError) in
            let number = text.hasSuffix("%") ? String(text.dropLast()) : text
            guard let percent = DecimalNumber.parse(number), range.contains(percent),
                !excludingLower || percent > range.lowerBound
            else {
                let lower =
                    excludingLower
                    ? "above \(DecimalText.plain(range.lowerBound))% and at most"
                    : "from \(DecimalText.plain(range.lowerBound))% to"
                throw UsageError(
                    "\(name) takes a percentage \(lower) \(DecimalText.plain(range.upperBound))% such as \(example), not '\(text)'"
                )
            }
            return percent
        }
    }

    /// A fraction strictly between 0 and 1, such as a significance level; the help shows `shownDefault` when given.
    static func fraction(_ name: String, _ placeholder: String, _ help: String, shownDefault: String? = nil) -> Self {
        Self(spec: .value(name, placeholder, help, shownDefault: shownDefault)) { text throws(UsageError) in
            guard let value = DecimalNumber.parse(text), value > 0, value < 1 else {
                throw UsageError("\(name) takes a number between 0 and 1, not '\(text)'")
            }
            return value
        }
    }
}

extension DefaultedOption where Value == Double {
    /// A percentage (``Option/percent(_:_:in:excludingLower:example:shownDefault:)``), `defaultValue` when left out.
    static func percent(
        _ name: String, _ help: String, in range: ClosedRange<Double>, excludingLower: Bool = false,
        example: String, default defaultValue: Double
    ) -> Self {
        let text = DecimalText.plain(defaultValue) + "%"
        let option = Option<Double>.percent(
            name, help, in: range, excludingLower: excludingLower, example: example)
        return Self(
            option: Option(
                spec: .value(name, "PERCENT", help, default: text), convert: option.convert))
    }
}

extension Option where Value == [Int] {
    /// Increasing whole numbers in `range`, comma-separated, such as `20,40,60`.
    static func increasingList(
        _ name: String, _ placeholder: String, _ help: String, in range: ClosedRange<Int>, what: String,
        example: String
    ) -> Self {
        Self(spec: .value(name, placeholder, help)) { text throws(UsageError) in
            let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
                Int($0.trimmingCharacters(in: .whitespaces))
            }
            let values = numbers.compactMap { $0 }
            guard !values.isEmpty, values.count == numbers.count, values.allSatisfy(range.contains),
                zip(values, values.dropFirst()).allSatisfy({ $0 < $1 })
            else {
                throw UsageError("\(name) takes increasing \(what) such as \(example), not '\(text)'")
            }
            return values
        }
    }
}

extension DefaultedOption where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// One of `Value`'s raw values, `defaultValue` when left out; the help shows
    /// the default unless `showsDefault` is false (the help says it in its own words).
    static func choice(
        _ name: String, _ placeholder: String, _ help: String, default defaultValue: Value, showsDefault: Bool = true
    ) -> Self {
        let words = Value.allCases.map(\.rawValue)
        let option = Option<Value>(
            spec: .value(
                name, placeholder, help, type: .choice(words), default: defaultValue.rawValue,
                showsDefault: showsDefault)
        ) { text throws(UsageError) in
            try Option<Value>.word(text, of: name, among: words)
        }
        return Self(option: option)
    }
}

/// A flag: present or not.
struct Flag: Sendable {
    /// The table entry the parser and the help take.
    let spec: OptionSpec

    /// `--quiet`, with its help.
    init(_ name: String, _ help: String) { spec = .flag(name, help) }
}

/// An option that may be given any number of times, each value kept.
struct RepeatedOption: Sendable {
    /// The table entry the parser and the help take.
    let spec: OptionSpec

    /// `--launch-option K=V`, with its help.
    init(_ name: String, _ placeholder: String, _ help: String) { spec = .repeatable(name, placeholder, help) }
}

extension Arguments {
    /// Whether `flag` was given.
    subscript(flag: Flag) -> Bool { has(flag.spec.name) }

    /// Every value given for `option`, in order.
    subscript(option: RepeatedOption) -> [String] { all(option.spec.name) }
}

/// A number written back as people write it: `20`, `2.5`, `0.01`.
enum DecimalText {
    /// `value` without a trailing `.0`.
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
