import LaunchAnalysis

// The coding containers of ``SortedJSONByteEncoder``: keyed, unkeyed and single-value,
// each writing its members through the encoder's slots.

// MARK: - Containers

struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: SortedJSONByteEncoder
    let index: Int
    let serial: Int

    var codingPath: [any CodingKey] { encoder.codingPath(through: index - 1) }

    @inline(__always)
    private func begin(_ key: Key) throws {
        try encoder.beginMember(key.stringValue, of: index, serial: serial)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try begin(key)
        encoder.null()
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try begin(key)
        encoder.bool(value)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try begin(key)
        encoder.string(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try begin(key)
        encoder.double(value)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try begin(key)
        encoder.float(value)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try begin(key)
        encoder.integer(value)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try begin(key)
        encoder.integer(value)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try begin(key)
        encoder.integer(value)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try begin(key)
        encoder.integer(value)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try begin(key)
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try begin(key)
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try begin(key)
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try begin(key)
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try begin(key)
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try begin(key)
        encoder.unsigned(value)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        try encoder.value(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        do {
            try begin(key)
            let (index, serial) = try encoder.open(.object, in: index, serial: serial)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, index: index, serial: serial))
        } catch {
            encoder.deferMisuse(error)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, index: 0, serial: -1))
        }
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        do {
            try begin(key)
            let (index, serial) = try encoder.open(.array, in: index, serial: serial)
            return UnkeyedContainer(encoder: encoder, index: index, serial: serial)
        } catch {
            encoder.deferMisuse(error)
            return UnkeyedContainer(encoder: encoder, index: 0, serial: -1)
        }
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key.stringValue)
    }

    private func superEncoder(named name: String) -> any Encoder {
        do {
            try encoder.beginMember(name, of: index, serial: serial)
        } catch {
            encoder.deferMisuse(error)
        }
        return encoder.memberEncoder(index: index, serial: serial)
    }
}

struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: SortedJSONByteEncoder
    let index: Int
    let serial: Int
    private(set) var count = 0

    init(encoder: SortedJSONByteEncoder, index: Int, serial: Int) {
        self.encoder = encoder
        self.index = index
        self.serial = serial
    }

    var codingPath: [any CodingKey] { encoder.codingPath(through: index - 1) }

    @inline(__always)
    private mutating func begin() throws {
        try encoder.beginElement(of: index, serial: serial)
        count += 1
    }

    mutating func encodeNil() throws {
        try begin()
        encoder.null()
    }
    mutating func encode(_ value: Bool) throws {
        try begin()
        encoder.bool(value)
    }
    mutating func encode(_ value: String) throws {
        try begin()
        encoder.string(value)
    }
    mutating func encode(_ value: Double) throws {
        try begin()
        encoder.double(value)
    }
    mutating func encode(_ value: Float) throws {
        try begin()
        encoder.float(value)
    }
    mutating func encode(_ value: Int) throws {
        try begin()
        encoder.integer(value)
    }
    mutating func encode(_ value: Int8) throws {
        try begin()
        encoder.integer(value)
    }
    mutating func encode(_ value: Int16) throws {
        try begin()
        encoder.integer(value)
    }
    mutating func encode(_ value: Int32) throws {
        try begin()
        encoder.integer(value)
    }
    mutating func encode(_ value: Int64) throws {
        try begin()
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt) throws {
        try begin()
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt8) throws {
        try begin()
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt16) throws {
        try begin()
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt32) throws {
        try begin()
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt64) throws {
        try begin()
        encoder.unsigned(value)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try begin()
        try encoder.value(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        do {
            try begin()
            let (index, serial) = try encoder.open(.object, in: index, serial: serial)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, index: index, serial: serial))
        } catch {
            encoder.deferMisuse(error)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, index: 0, serial: -1))
        }
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        do {
            try begin()
            let (index, serial) = try encoder.open(.array, in: index, serial: serial)
            return UnkeyedContainer(encoder: encoder, index: index, serial: serial)
        } catch {
            encoder.deferMisuse(error)
            return UnkeyedContainer(encoder: encoder, index: 0, serial: -1)
        }
    }

    mutating func superEncoder() -> any Encoder {
        do {
            try begin()
        } catch {
            encoder.deferMisuse(error)
        }
        return encoder.memberEncoder(index: index, serial: serial)
    }
}

struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: SortedJSONByteEncoder
    let slot: SortedJSONByteEncoder.Slot

    var codingPath: [any CodingKey] { encoder.codingPath(through: slot.frame) }

    @inline(__always)
    private func enter() throws { try encoder.enterSlot(slot) }

    mutating func encodeNil() throws {
        try enter()
        encoder.null()
    }
    mutating func encode(_ value: Bool) throws {
        try enter()
        encoder.bool(value)
    }
    mutating func encode(_ value: String) throws {
        try enter()
        encoder.string(value)
    }
    mutating func encode(_ value: Double) throws {
        try enter()
        encoder.double(value)
    }
    mutating func encode(_ value: Float) throws {
        try enter()
        encoder.float(value)
    }
    mutating func encode(_ value: Int) throws {
        try enter()
        encoder.integer(value)
    }
    mutating func encode(_ value: Int8) throws {
        try enter()
        encoder.integer(value)
    }
    mutating func encode(_ value: Int16) throws {
        try enter()
        encoder.integer(value)
    }
    mutating func encode(_ value: Int32) throws {
        try enter()
        encoder.integer(value)
    }
    mutating func encode(_ value: Int64) throws {
        try enter()
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt) throws {
        try enter()
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt8) throws {
        try enter()
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt16) throws {
        try enter()
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt32) throws {
        try enter()
        encoder.integer(value)
    }
    mutating func encode(_ value: UInt64) throws {
        try enter()
        encoder.unsigned(value)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try enter()
        try encoder.value(value)
    }
}
