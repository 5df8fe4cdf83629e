import Foundation

/// A JSON writer into a byte buffer, for renderers that write many small
/// values (the Chrome trace writes one object per span).
///
/// It writes what it is told, in order: the caller places the commas and
/// braces. Strings are escaped as RFC 8259 requires (`"`, `\`, and every
/// control character below U+0020); numbers are written from integers, so a
/// duration in nanoseconds becomes an exact decimal without formatting a
/// `Double`. It writes through a pointer into the storage of the array it
/// returns, so a value costs a capacity check and its bytes: no allocation,
/// no per-byte bounds check, no division by anything but a constant.
///
/// A writer made with ``init(growingFrom:)`` owns its storage instead and
/// grows it when a write does not fit (the JSON report's encoder, which
/// cannot start over, writes this way). One made by ``flushing(chunk:to:_:)``
/// hands what it wrote to a sink whenever its buffer is full, and starts it
/// again: a file of hundreds of MB is written through one buffer of a megabyte.
///
/// ```swift
/// let bytes = JSONBytes.bytes(capacity: 64) { json in
///     json.raw("{\"ts\":")
///     json.microseconds(1_234_567)   // 1234.567
///     json.raw("}")
/// }
/// ```
package struct JSONBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// True when this writer allocated `base`, and grows it rather than overflow.
    private let ownsStorage: Bool
    /// Where a writer that flushes hands its full buffer (``flushing(chunk:to:_:)``).
    private var sink: ((UnsafeRawBufferPointer) -> Void)?
    /// Set when a write did not fit: what was written is then garbage.
    private(set) var overflowed = false

    /// A writer into `buffer`, which it never outgrows: a write that does not
    /// fit sets ``overflowed``, and the caller writes again into a larger one.
    init(into buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: 1)!
        capacity = buffer.count
        ownsStorage = false
    }

    /// A writer into storage of its own, `capacity` bytes to begin with, that
    /// doubles when a write does not fit: it never overflows. ``bytes`` copies
    /// what was written out once, at the end (``written``).
    init(growingFrom capacity: Int) {
        self.capacity = max(capacity, 64)
        base = Self.reallocate(nil, capacity: self.capacity)
        ownsStorage = true
    }

    deinit {
        if ownsStorage { free(base) }
    }

    /// Lets `body` write into a buffer of `chunk` bytes that is handed to
    /// `sink` each time it is full, and once more at the end: the bytes `sink`
    /// receives, in order, are those `body` wrote (a single write larger than
    /// the buffer grows it).
    package static func flushing(
        chunk: Int = 1 << 20, to sink: (UnsafeRawBufferPointer) -> Void, _ body: (inout JSONBytes) -> Void
    ) {
        withoutActuallyEscaping(sink) { sink in
            var json = JSONBytes(growingFrom: chunk)
            json.sink = sink
            body(&json)
            json.flush()
            json.sink = nil
        }
    }

    /// Hands what was written to the sink, and starts the buffer again.
    private mutating func flush() {
        guard let sink, count > 0 else { return }
        sink(UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }

    /// `realloc`: a large buffer grows where it lies, or is moved by the
    /// kernel's page tables rather than copied (a report's JSON is tens of MB).
    private static func reallocate(_ base: UnsafeMutablePointer<UInt8>?, capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let grown = realloc(base, capacity) else { fatalError("out of memory for \(capacity) bytes of JSON") }
        return grown.assumingMemoryBound(to: UInt8.self)
    }

    /// A copy of the bytes written.
    var written: [UInt8] {
        [UInt8](UnsafeBufferPointer(start: base, count: count))
    }

    /// Lets `body` rearrange the bytes written so far, in place.
    mutating func withWrittenBytes<Result>(_ body: (UnsafeMutablePointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(base)
    }

    /// Forgets what was written after the first `newCount` bytes.
    mutating func removeAll(after newCount: Int) {
        precondition(newCount <= count)
        count = newCount
    }

    /// How many bytes have been written.
    package var writtenCount: Int { count }

    /// Writes `body` straight into a new array's storage of `capacity` bytes,
    /// trying again with twice as much until it fits: no copy at the end, no
    /// copy to grow. Pages of the storage that are never written cost nothing.
    package static func bytes(capacity: Int, _ body: (inout JSONBytes) -> Void) -> [UInt8] {
        var capacity = max(capacity, 64)
        while true {
            var overflowed = false
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                var json = JSONBytes(into: buffer)
                body(&json)
                overflowed = json.overflowed
                initialized = overflowed ? 0 : json.count
            }
            if !overflowed { return bytes }
            capacity *= 2
        }
    }

    /// True when `extra` more bytes fit. When they do not, writing starts over
    /// at the beginning, so it goes on harmlessly until the caller sees
    /// ``overflowed``; false only for a write larger than the whole buffer, to skip.
    @inline(__always)
    private mutating func reserve(_ extra: Int) -> Bool {
        if count + extra <= capacity { return true }
        return overflow(extra)
    }

    @inline(never)
    private mutating func overflow(_ extra: Int) -> Bool {
        if sink != nil {
            flush()
            if extra > capacity {
                capacity = extra
                base = Self.reallocate(base, capacity: capacity)
            }
            return true
        }
        if ownsStorage {
            capacity = max(2 * capacity, count + extra)
            base = Self.reallocate(base, capacity: capacity)
            return true
        }
        overflowed = true
        count = 0
        return extra <= capacity
    }

    @inline(__always)
    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty, reserve(bytes.count) else { return }
        (base + count).initialize(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    /// Writes `text` as it is: punctuation and keys known to need no escaping.
    @inline(__always)
    package mutating func raw(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes `text`, which is already JSON (made by one of this package's own
    /// encoders), as it is.
    mutating func rawJSON(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `count` copies of `byte` (indentation).
    @inline(__always)
    mutating func repeating(_ byte: UInt8, count: Int) {
        guard count > 0, reserve(count) else { return }
        (base + self.count).initialize(repeating: byte, count: count)
        self.count += count
    }

    /// Writes one byte as it is.
    @inline(__always)
    package mutating func byte(_ byte: UInt8) {
        guard reserve(1) else { return }
        base[count] = byte
        count += 1
    }

    /// Writes `text` as a JSON string, quoted and escaped.
    package mutating func string(_ text: String) {
        byte(UInt8(ascii: "\""))
        stringContents(text)
        byte(UInt8(ascii: "\""))
    }

    /// Writes `file:line` as a JSON string, without building it first.
    mutating func location(file: String, line: Int) {
        byte(UInt8(ascii: "\""))
        stringContents(file)
        byte(UInt8(ascii: ":"))
        integer(line)
        byte(UInt8(ascii: "\""))
    }

    /// Writes a finite `Double` as `JSONEncoder` does: its shortest
    /// round-tripping `description` (`0.1`, `1e+16`, `5e-324`), a whole number
    /// without its `.0` (`20`, `-0`).
    package mutating func double(_ value: Double) {
        decimal(value.description)
    }

    /// Writes a finite `Float` as `JSONEncoder` does (see ``double(_:)``).
    mutating func float(_ value: Float) {
        decimal(value.description)
    }

    private mutating func decimal(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var count = utf8.count
            if count > 2, utf8[count - 2] == UInt8(ascii: "."), utf8[count - 1] == UInt8(ascii: "0") { count -= 2 }
            append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[..<count]))
        }
    }

    /// Writes `text` escaped, without quotes.
    package mutating func stringContents(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[start..<index]))
                escape(byte)
                start = index + 1
            }
            append(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[start...]))
        }
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw(#"\""#)
        case UInt8(ascii: "\\"): raw(#"\\"#)
        case 0x0A: raw(#"\n"#)
        case 0x0D: raw(#"\r"#)
        case 0x09: raw(#"\t"#)
        case 0x08: raw(#"\b"#)
        case 0x0C: raw(#"\f"#)
        default:
            // \u00XX: only control characters get here.
            func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : UInt8(ascii: "a") + nibble - 10 }
            raw(#"\u00"#)
            self.byte(hex(byte >> 4))
            self.byte(hex(byte & 0xF))
        }
    }

    /// Writes a non-negative integer.
    package mutating func integer(_ value: UInt64) {
        // Digits are counted by comparison and written two at a time (a report is millions of numbers).
        var digits = 1
        var power: UInt64 = 10
        while digits < 20, value >= power {
            digits += 1
            power = power &* 10
        }
        guard reserve(digits) else { return }
        var rest = value
        var position = count + digits
        let pairs = Self.digitPairs.utf8Start
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) * 2
            rest /= 100
            position -= 2
            base[position] = pairs[pair]
            base[position + 1] = pairs[pair + 1]
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) * 2
            base[position - 2] = pairs[pair]
            base[position - 1] = pairs[pair + 1]
        } else {
            base[position - 1] = 0x30 + UInt8(truncatingIfNeeded: rest)
        }
        count += digits
    }

    /// `00`, `01` … `99`, one after another.
    private static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    /// Writes an integer.
    package mutating func integer(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        integer(UInt64(value.magnitude))
    }

    /// Writes the `digits` decimals of `fraction` (under 10^digits) after a
    /// point, without trailing zeros; nothing when it is 0.
    @inline(__always)
    private mutating func fraction(_ fraction: UInt64, digits: Int) {
        guard fraction > 0 else { return }
        var fraction = fraction
        var digits = digits
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        guard reserve(digits + 1) else { return }
        base[count] = UInt8(ascii: ".")
        var position = count + digits + 1
        for _ in 0..<digits {
            position -= 1
            base[position] = 0x30 + UInt8(truncatingIfNeeded: fraction % 10)
            fraction /= 10
        }
        count += digits + 1
    }

    /// Writes nanoseconds as microseconds (the trace format's unit), exactly:
    /// `1234.567`, `-3.2`, `12`.
    mutating func microseconds(_ nanoseconds: Int64) {
        if nanoseconds < 0 { byte(UInt8(ascii: "-")) }
        let magnitude = nanoseconds.magnitude
        integer(magnitude / 1_000)
        fraction(magnitude % 1_000, digits: 3)
    }

    /// Writes nanoseconds as milliseconds, exactly: `12.345678`.
    mutating func milliseconds(_ nanoseconds: UInt64) {
        integer(nanoseconds / 1_000_000)
        fraction(nanoseconds % 1_000_000, digits: 6)
    }
}
