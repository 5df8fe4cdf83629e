import LaunchAnalysis

/// Encodes an `Encodable` value as JSON straight into bytes, as `JSONEncoder`
/// does with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` and
/// non-finite numbers as the strings `"inf"`, `"-inf"` and `"nan"`: the same
/// text (two-space indentation, `"key" : value`, keys in UTF-8 byte order,
/// numbers as `JSONEncoder` prints them), so every `Codable` conformance works
/// unchanged.
///
/// `JSONEncoder` builds a tree of boxed values and then writes it; this
/// encoder writes each value where it goes as it is encoded, and keeps aside
/// only what sorting needs: where each member of an open object begins and its
/// key. When an object closes, its members are put in key order with one copy
/// (none when they came sorted). Containers close when the value that opened
/// them returns from `encode(to:)`, or when a container outside them is
/// written to; so containers must be used as every synthesized and ordinary
/// conformance uses them, innermost first. Writing to a container after
/// writing outside it throws `EncodingError.invalidValue`.
///
/// Arrays of the types in `oneLineElements` are written one element a line,
/// compactly (`{"a":1,"b":[2]}`), keys still sorted. Objects of the types in
/// `keepingOrder` keep the order their conformance wrote their members in
/// (the JSON report's header first, its runs last). A ``SpanTable`` is
/// written with each column on one line (`"begin" : [812,42,31]`).
///
/// Cost: a buffer that doubles as needed, two side arrays; no allocation per
/// value besides what a conformance allocates itself.
///
/// ```swift
/// let bytes = try SortedJSONByteEncoder.encode(report)
/// ```
final class SortedJSONByteEncoder {
    /// An open container, or the root that holds the top-level value.
    struct Frame {
        enum Kind { case root, object, array }
        let kind: Kind
        /// Distinguishes this frame from an earlier one at the same place in ``frames``.
        let serial: Int
        /// Indentation level of the brackets; members are one deeper.
        let depth: Int
        /// Written on one line, without indentation.
        let compact: Bool
        /// Elements (of an array) are each written on one line.
        let compactElements: Bool
        /// Members (of an object) stay in the order written, unsorted.
        var keepsOrder = false
        /// The offset just after the opening bracket.
        let contentStart: Int
        /// This object's first member in ``members``, and first key byte in ``keyBytes``.
        let firstMember: Int
        let firstKeyByte: Int
        /// Members (or elements) begun.
        var count = 0
        /// The last member was begun and its value is not written yet.
        var awaitingValue = false
    }

    /// A member of an open object: where it begins (its leading comma, or the
    /// newline of the first one written) and its key.
    struct Member {
        let start: Int
        let keyStart: Int
        let keyCount: Int
    }

    /// Where one value goes: the last member of an open frame. An `Encoder`
    /// handed to a value's `encode(to:)` opens its container here, once.
    struct Slot {
        let frame: Int
        let serial: Int
        let member: Int
        /// The value is an array of a `oneLineElements` type.
        var compactElements = false
        /// The value is of a `keepingOrder` type.
        var keepsOrder = false
        /// The container the value opened here, if it has: asked again, it is returned again.
        var opened: (serial: Int, kind: Frame.Kind)?
    }

    // Accessed only from this encoder, on one thread, never overlapping (no
    // closure here writes what its caller is writing): exclusivity checked at
    // run time would be a third of the cost.
    @exclusivity(unchecked) var json: JSONBytes
    @exclusivity(unchecked) private(set) var frames: [Frame] = []
    @exclusivity(unchecked) private var members: [Member] = []
    @exclusivity(unchecked) private var keyBytes: [UInt8] = []
    @exclusivity(unchecked) private var order: [Int] = []
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    /// One column of a span table at a time (``spanTable(_:)``).
    @exclusivity(unchecked) var columnCells: [UInt64?] = []
    @exclusivity(unchecked) private var nextSerial = 1
    @exclusivity(unchecked) private var slot: Slot
    private let oneLineElements: [ObjectIdentifier]
    private let keepingOrder: [ObjectIdentifier]
    /// A misuse found where it could not be thrown (a container asked for in the wrong place).
    private var deferredError: (any Error)?

    private init(capacity: Int, oneLineElements: [ObjectIdentifier], keepingOrder: [ObjectIdentifier]) {
        json = JSONBytes(growingFrom: capacity)
        self.oneLineElements = oneLineElements
        self.keepingOrder = keepingOrder
        frames.append(
            Frame(
                kind: .root, serial: 0, depth: -1, compact: false, compactElements: false,
                contentStart: 0, firstMember: 0, firstKeyByte: 0, count: 1, awaitingValue: true))
        slot = Slot(frame: 0, serial: 0, member: 0)
    }

    /// Encodes `value`; arrays of the types in `oneLineElements` (each given as
    /// its array type, `[T].self`) are written one element a line, objects of
    /// the types in `keepingOrder` with their members in the order written.
    static func encode<T: Encodable>(
        _ value: T, oneLineElements: [any Any.Type] = [], keepingOrder: [any Any.Type] = [], capacity: Int = 1 << 16
    ) throws -> [UInt8] {
        let encoder = SortedJSONByteEncoder(
            capacity: capacity, oneLineElements: oneLineElements.map { ObjectIdentifier($0) },
            keepingOrder: keepingOrder.map { ObjectIdentifier($0) })
        try encoder.value(value)
        try encoder.close(downTo: 0)
        if let error = encoder.deferredError { throw error }
        if encoder.frames[0].awaitingValue {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return encoder.json.written
    }

    // MARK: Values

    /// Writes `value` into the current slot (the last member of the top frame, just begun).
    func value<T: Encodable>(_ value: T) throws {
        // Scalars, and what stands for them, without a container.
        if T.self == String.self { return string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return integer(unsafeBitCast(value, to: Int.self)) }
        if T.self == UInt64.self { return unsigned(unsafeBitCast(value, to: UInt64.self)) }
        if T.self == Double.self { return double(unsafeBitCast(value, to: Double.self)) }
        if T.self == Bool.self { return bool(unsafeBitCast(value, to: Bool.self)) }

        // Nearly all of a report: written as the generic path would write it, each column on one line.
        if T.self == SpanTable.self { return try spanTable(unsafeBitCast(value, to: SpanTable.self)) }
        let compactElements = !oneLineElements.isEmpty && oneLineElements.contains(ObjectIdentifier(T.self))
        let keepsOrder = !keepingOrder.isEmpty && keepingOrder.contains(ObjectIdentifier(T.self))

        let top = frames.count - 1
        let saved = slot
        slot = Slot(
            frame: top, serial: frames[top].serial, member: frames[top].count - 1, compactElements: compactElements,
            keepsOrder: keepsOrder)
        defer { slot = saved }
        try value.encode(to: self)
        try close(downTo: top)
        if frames[top].awaitingValue {
            emptyObject(depth: frames[top].depth + 1, compact: frames[top].compact || frames[top].compactElements)
        }
    }

    func string(_ value: String) {
        json.string(value)
        valueWritten()
    }

    func integer<I: BinaryInteger>(_ value: I) {
        if let value = Int(exactly: value) {
            json.integer(value)
        } else {
            json.integer(UInt64(value))
        }
        valueWritten()
    }

    func unsigned(_ value: UInt64) {
        json.integer(value)
        valueWritten()
    }

    func double(_ value: Double) {
        if value.isFinite {
            json.double(value)
        } else {
            nonFinite(value.isNaN ? "nan" : value < 0 ? "-inf" : "inf")
        }
        valueWritten()
    }

    func float(_ value: Float) {
        if value.isFinite {
            json.float(value)
        } else {
            nonFinite(value.isNaN ? "nan" : value < 0 ? "-inf" : "inf")
        }
        valueWritten()
    }

    private func nonFinite(_ text: StaticString) {
        json.byte(UInt8(ascii: "\""))
        json.raw(text)
        json.byte(UInt8(ascii: "\""))
    }

    func bool(_ value: Bool) {
        if value { json.raw("true") } else { json.raw("false") }
        valueWritten()
    }

    func null() {
        json.raw("null")
        valueWritten()
    }

    @inline(__always)
    func valueWritten() {
        frames[frames.count - 1].awaitingValue = false
    }

    private func emptyObject(depth: Int, compact: Bool) {
        if compact {
            json.raw("{}")
        } else {
            json.raw("{\n\n")
            indent(depth)
            json.byte(UInt8(ascii: "}"))
        }
        valueWritten()
    }

    @inline(__always)
    private func indent(_ depth: Int) {
        json.repeating(UInt8(ascii: " "), count: 2 * depth)
    }

    // MARK: Members

    /// Makes frame `index` (`serial`) the top one, closing those above it.
    @inline(__always)
    private func reopen(_ index: Int, _ serial: Int) throws {
        guard index < frames.count, frames[index].serial == serial else {
            throw misuse("a container written to after it was closed")
        }
        if index != frames.count - 1 { try close(downTo: index) }
    }

    /// Begins a member of object `index`: its separator, indentation and key.
    func beginMember(_ key: String, of index: Int, serial: Int) throws {
        try reopen(index, serial)
        let frame = frames[index]
        if frame.awaitingValue { emptyObject(depth: frame.depth + 1, compact: frame.compact) }
        let start = json.writtenCount
        if frame.count > 0 { json.byte(UInt8(ascii: ",")) }
        if !frame.compact {
            json.byte(UInt8(ascii: "\n"))
            indent(frame.depth + 1)
        }
        json.string(key)
        if frame.compact { json.byte(UInt8(ascii: ":")) } else { json.raw(" : ") }
        let keyStart = keyBytes.count
        var key = key
        key.withUTF8 { keyBytes.append(contentsOf: $0) }
        members.append(Member(start: start, keyStart: keyStart, keyCount: keyBytes.count - keyStart))
        frames[index].count += 1
        frames[index].awaitingValue = true
    }

    /// Begins an element of array `index`.
    func beginElement(of index: Int, serial: Int) throws {
        try reopen(index, serial)
        let frame = frames[index]
        if frame.awaitingValue { emptyObject(depth: frame.depth + 1, compact: frame.compact || frame.compactElements) }
        if frame.count > 0 { json.byte(UInt8(ascii: ",")) }
        if !frame.compact {
            json.byte(UInt8(ascii: "\n"))
            indent(frame.depth + 1)
        }
        frames[index].count += 1
        frames[index].awaitingValue = true
    }

    /// Opens a container as the value of the last member of frame `parent`.
    func open(_ kind: Frame.Kind, in parent: Int, serial: Int, compactElements: Bool = false) throws -> (
        index: Int, serial: Int
    ) {
        try reopen(parent, serial)
        let outer = frames[parent]
        guard outer.awaitingValue else { throw misuse("a second value for one key or element") }
        json.byte(kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        frames[parent].awaitingValue = false
        var frame = Frame(
            kind: kind, serial: nextSerial, depth: outer.depth + 1, compact: outer.compact || outer.compactElements,
            compactElements: kind == .array && (compactElements || (slot.compactElements && slot.frame == parent)),
            contentStart: json.writtenCount, firstMember: members.count, firstKeyByte: keyBytes.count)
        frame.keepsOrder = kind == .object && slot.keepsOrder && slot.frame == parent
        nextSerial += 1
        frames.append(frame)
        return (frames.count - 1, frame.serial)
    }

    /// Closes every frame above `index`.
    func close(downTo index: Int) throws {
        while frames.count - 1 > index {
            let frame = frames[frames.count - 1]
            if frame.awaitingValue {
                emptyObject(depth: frame.depth + 1, compact: frame.compact || frame.compactElements)
            }
            if frame.kind == .object, !frame.keepsOrder { sortMembers(of: frame) }
            if frame.count == 0 {
                if !frame.compact {
                    json.raw("\n\n")
                    indent(frame.depth)
                }
            } else if !frame.compact {
                json.byte(UInt8(ascii: "\n"))
                indent(frame.depth)
            }
            json.byte(frame.kind == .object ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            members.removeSubrange(frame.firstMember...)
            keyBytes.removeSubrange(frame.firstKeyByte...)
            frames.removeLast()
        }
    }

    /// Puts the members of `frame`, just written, in key order; of members
    /// with the same key, the last one written stays (as with `JSONEncoder`).
    private func sortMembers(of frame: Frame) {
        let first = frame.firstMember
        let end = members.count
        guard end - first > 1 else { return }
        var inOrder = true
        for index in first + 1..<end where compareKeys(index - 1, index) >= 0 {
            inOrder = false
            break
        }
        if inOrder { return }

        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: first..<end)
        order.sort {
            let order = compareKeys($0, $1)
            return order < 0 || (order == 0 && $0 < $1)
        }
        let contentEnd = json.writtenCount
        scratch.removeAll(keepingCapacity: true)
        scratch.reserveCapacity(contentEnd - frame.contentStart)
        json.withWrittenBytes { bytes in
            for (position, index) in order.enumerated() {
                if position + 1 < order.count, compareKeys(index, order[position + 1]) == 0 { continue }
                // The first member written has no comma before it; every other one has.
                let start = members[index].start + (index == first ? 0 : 1)
                let end = index + 1 < end ? members[index + 1].start : contentEnd
                if !scratch.isEmpty { scratch.append(UInt8(ascii: ",")) }
                scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: end - start))
            }
            scratch.withUnsafeBufferPointer { sorted in
                (bytes + frame.contentStart).update(from: sorted.baseAddress!, count: sorted.count)
            }
        }
        json.removeAll(after: frame.contentStart + scratch.count)
    }

    /// Compares the keys of two members by their UTF-8 bytes.
    private func compareKeys(_ left: Int, _ right: Int) -> Int {
        let left = members[left]
        let right = members[right]
        return keyBytes.withUnsafeBufferPointer { keys in
            let common = min(left.keyCount, right.keyCount)
            for offset in 0..<common {
                let a = keys[left.keyStart + offset]
                let b = keys[right.keyStart + offset]
                if a != b { return a < b ? -1 : 1 }
            }
            return left.keyCount - right.keyCount
        }
    }

    // MARK: Errors and coding paths

    private func misuse(_ problem: String) -> EncodingError {
        EncodingError.invalidValue(
            problem,
            EncodingError.Context(
                codingPath: codingPath(through: frames.count - 1), debugDescription: "JSON encoding: \(problem)"))
    }

    func deferMisuse(_ error: any Error) {
        if deferredError == nil { deferredError = error }
    }

    /// The path to the last member of frame `index` (only for errors: it is built when asked for).
    func codingPath(through index: Int) -> [any CodingKey] {
        var path: [any CodingKey] = []
        for frame in frames[1..<max(1, min(index + 1, frames.count))] where frame.count > 0 {
            switch frame.kind {
            case .root: break
            case .array: path.append(IndexKey(intValue: frame.count - 1))
            case .object:
                let member = members[frame.firstMember + frame.count - 1]
                path.append(
                    IndexKey(
                        stringValue: String(
                            decoding: keyBytes[member.keyStart..<member.keyStart + member.keyCount], as: UTF8.self)))
            }
        }
        return path
    }

    struct IndexKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) {
            stringValue = "Index \(intValue)"
            self.intValue = intValue
        }
    }
}

// MARK: - Encoder

extension SortedJSONByteEncoder: Encoder {
    var codingPath: [any CodingKey] { codingPath(through: slot.frame) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let (index, serial) = openInSlot(.object)
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, index: index, serial: serial))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let (index, serial) = openInSlot(.array)
        return UnkeyedContainer(encoder: self, index: index, serial: serial)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self, slot: slot)
    }

    /// The container of the value being encoded: opened the first time, the same one after.
    private func openInSlot(_ kind: Frame.Kind) -> (Int, Int) {
        if let opened = slot.opened {
            let index = slot.frame + 1
            if opened.kind == kind, index < frames.count, frames[index].serial == opened.serial {
                return (index, opened.serial)
            }
            deferMisuse(misuse("a second container for one value"))
            return (0, -1)
        }
        do {
            guard frames[slot.frame].serial == slot.serial, frames[slot.frame].count - 1 == slot.member else {
                throw misuse("a container opened after its place was written past")
            }
            let opened = try open(kind, in: slot.frame, serial: slot.serial)
            slot.opened = (opened.serial, kind)
            return opened
        } catch {
            deferMisuse(error)
            return (0, -1)
        }
    }

    /// An encoder for the member just begun in frame `index` (a `superEncoder`).
    func memberEncoder(index: Int, serial: Int) -> any Encoder {
        MemberEncoder(encoder: self, slot: Slot(frame: index, serial: serial, member: frames[index].count - 1))
    }
}

/// The encoder `superEncoder()` returns: it encodes into the member it was made for.
private final class MemberEncoder: Encoder {
    let encoder: SortedJSONByteEncoder
    let slot: SortedJSONByteEncoder.Slot

    init(encoder: SortedJSONByteEncoder, slot: SortedJSONByteEncoder.Slot) {
        self.encoder = encoder
        self.slot = slot
    }

    var codingPath: [any CodingKey] { encoder.codingPath(through: slot.frame) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        encoder.withSlot(slot) { $0.container(keyedBy: type) }
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        encoder.withSlot(slot) { $0.unkeyedContainer() }
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: encoder, slot: slot)
    }
}

extension SortedJSONByteEncoder {
    /// Runs `body` with `slot` as the place values go.
    func withSlot<Result>(_ slot: Slot, _ body: (SortedJSONByteEncoder) -> Result) -> Result {
        let saved = self.slot
        self.slot = slot
        defer { self.slot = saved }
        return body(self)
    }

    /// Makes `slot` the top frame's last member again, for a single value.
    func enterSlot(_ slot: Slot) throws {
        try reopenForSlot(slot)
    }

    private func reopenForSlot(_ slot: Slot) throws {
        guard slot.frame < frames.count, frames[slot.frame].serial == slot.serial,
            frames[slot.frame].count - 1 == slot.member
        else {
            throw EncodingError.invalidValue(
                slot.member,
                EncodingError.Context(
                    codingPath: codingPath(through: slot.frame),
                    debugDescription: "JSON encoding: a single value written after its place was written past"))
        }
        try close(downTo: slot.frame)
        guard frames[slot.frame].awaitingValue else {
            throw EncodingError.invalidValue(
                slot.member,
                EncodingError.Context(
                    codingPath: codingPath(through: slot.frame),
                    debugDescription: "JSON encoding: a second single value for one place"))
        }
    }
}
