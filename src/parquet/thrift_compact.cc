#include "parquet/thrift_compact.h"

#include <bit>
#include <cstring>
#include <limits>

#include "parquet/errors.h"

namespace timef::parquet::thrift {
namespace {

constexpr std::uint8_t kLongFormMarker = 0x0F;  // list size nibble meaning "size follows"
constexpr std::uint8_t kMaxWireType = static_cast<std::uint8_t>(WireType::kUuid);

std::uint32_t ZigZag32(std::int32_t n) {
  return (static_cast<std::uint32_t>(n) << 1) ^ static_cast<std::uint32_t>(n >> 31);
}
std::uint64_t ZigZag64(std::int64_t n) {
  return (static_cast<std::uint64_t>(n) << 1) ^ static_cast<std::uint64_t>(n >> 63);
}
std::int32_t UnZigZag32(std::uint32_t n) {
  return static_cast<std::int32_t>(n >> 1) ^ -static_cast<std::int32_t>(n & 1);
}
std::int64_t UnZigZag64(std::uint64_t n) {
  return static_cast<std::int64_t>(n >> 1) ^ -static_cast<std::int64_t>(n & 1);
}

// The fewest bytes one element of `type` can occupy; bounds how many elements a buffer can hold.
std::size_t MinEncodedSize(WireType type) {
  switch (type) {
    case WireType::kDouble:
      return 8;
    case WireType::kUuid:
      return 16;
    default:
      return 1;
  }
}

}  // namespace

std::string_view WireTypeName(WireType type) {
  switch (type) {
    case WireType::kStop:
      return "stop";
    case WireType::kBoolTrue:
    case WireType::kBoolFalse:
      return "bool";
    case WireType::kI8:
      return "i8";
    case WireType::kI16:
      return "i16";
    case WireType::kI32:
      return "i32";
    case WireType::kI64:
      return "i64";
    case WireType::kDouble:
      return "double";
    case WireType::kBinary:
      return "binary";
    case WireType::kList:
      return "list";
    case WireType::kSet:
      return "set";
    case WireType::kMap:
      return "map";
    case WireType::kStruct:
      return "struct";
    case WireType::kUuid:
      return "uuid";
  }
  return "invalid";
}

// ---- Writer ----

void Writer::StructBegin() { last_field_id_.push_back(0); }

void Writer::StructEnd() {
  out_.push_back(std::byte{0});
  last_field_id_.pop_back();
}

void Writer::FieldBegin(std::int16_t id, WireType type) {
  std::int16_t& last = last_field_id_.back();
  const int delta = int{id} - int{last};
  const auto type_bits = static_cast<std::uint8_t>(type);
  if (delta > 0 && delta <= 15) {
    out_.push_back(static_cast<std::byte>((delta << 4) | type_bits));
  } else {
    out_.push_back(static_cast<std::byte>(type_bits));
    I16(id);
  }
  last = id;
}

void Writer::FieldBool(std::int16_t id, bool value) {
  FieldBegin(id, value ? WireType::kBoolTrue : WireType::kBoolFalse);
}
void Writer::FieldI8(std::int16_t id, std::int8_t value) {
  FieldBegin(id, WireType::kI8);
  I8(value);
}
void Writer::FieldI16(std::int16_t id, std::int16_t value) {
  FieldBegin(id, WireType::kI16);
  I16(value);
}
void Writer::FieldI32(std::int16_t id, std::int32_t value) {
  FieldBegin(id, WireType::kI32);
  I32(value);
}
void Writer::FieldI64(std::int16_t id, std::int64_t value) {
  FieldBegin(id, WireType::kI64);
  I64(value);
}
void Writer::FieldDouble(std::int16_t id, double value) {
  FieldBegin(id, WireType::kDouble);
  Double(value);
}
void Writer::FieldBinary(std::int16_t id, std::string_view value) {
  FieldBegin(id, WireType::kBinary);
  Binary(value);
}

void Writer::ListBegin(WireType element, std::uint32_t size) {
  const auto type_bits = static_cast<std::uint8_t>(element);
  if (size < kLongFormMarker) {
    out_.push_back(static_cast<std::byte>((size << 4) | type_bits));
  } else {
    out_.push_back(static_cast<std::byte>((kLongFormMarker << 4) | type_bits));
    VarUint(size);
  }
}

void Writer::MapBegin(WireType key, WireType value, std::uint32_t size) {
  VarUint(size);
  if (size == 0) return;  // an empty map is the single byte 0
  out_.push_back(static_cast<std::byte>((static_cast<std::uint8_t>(key) << 4) |
                                        static_cast<std::uint8_t>(value)));
}

void Writer::Bool(bool value) {
  // Apache Thrift (C++, Java) and the Rust crate write 1/2; the spec text says 1/0. Readers take
  // both.
  out_.push_back(std::byte{value ? std::uint8_t{1} : std::uint8_t{2}});
}
void Writer::I8(std::int8_t value) { out_.push_back(static_cast<std::byte>(value)); }
void Writer::I16(std::int16_t value) { VarUint(ZigZag32(value)); }
void Writer::I32(std::int32_t value) { VarUint(ZigZag32(value)); }
void Writer::I64(std::int64_t value) { VarUint(ZigZag64(value)); }

void Writer::Double(double value) {
  auto bits = std::bit_cast<std::uint64_t>(value);
  for (int i = 0; i < 8; ++i) {
    out_.push_back(static_cast<std::byte>(bits & 0xFF));
    bits >>= 8;
  }
}

void Writer::Binary(std::string_view value) {
  VarUint(value.size());
  const auto* p = reinterpret_cast<const std::byte*>(value.data());
  out_.insert(out_.end(), p, p + value.size());
}

void Writer::Uuid(std::span<const std::byte, 16> value) { Raw(value); }

void Writer::Raw(std::span<const std::byte> bytes) {
  out_.insert(out_.end(), bytes.begin(), bytes.end());
}

void Writer::VarUint(std::uint64_t value) {
  while (value >= 0x80) {
    out_.push_back(static_cast<std::byte>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out_.push_back(static_cast<std::byte>(value));
}

// ---- Reader ----

void Reader::Fail(std::string_view problem) const {
  throw DecodeErrorAt("thrift: " + std::string(problem), pos_);
}

std::span<const std::byte> Reader::Take(std::size_t n) {
  if (n > remaining()) {
    Fail("value of " + std::to_string(n) + " bytes runs past the end of the buffer (" +
         std::to_string(remaining()) + " bytes left)");
  }
  auto out = data_.subspan(pos_, n);
  pos_ += n;
  return out;
}

std::uint8_t Reader::Byte() {
  if (pos_ >= data_.size()) Fail("unexpected end of the buffer");
  return static_cast<std::uint8_t>(data_[pos_++]);
}

std::uint64_t Reader::ReadVarUint(int max_bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < max_bytes; ++i) {
    const std::uint8_t b = Byte();
    const int shift = 7 * i;
    const std::uint64_t bits = b & 0x7F;
    // The tenth byte of a 64-bit varint may only carry the top bit.
    if (shift == 63 && bits > 1) Fail("varint overflows 64 bits");
    value |= bits << shift;
    if ((b & 0x80) == 0) return value;
  }
  Fail("varint longer than " + std::to_string(max_bytes) + " bytes");
}

void Reader::Enter() {
  if (++depth_ > kMaxNestingDepth) {
    Fail("nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels");
  }
}

void Reader::StructBegin() {
  Enter();
  last_field_id_.push_back(0);
}

void Reader::StructEnd() {
  last_field_id_.pop_back();
  Leave();
}

bool Reader::NextField(FieldHeader& field) {
  const std::uint8_t b = Byte();
  const std::uint8_t type = b & 0x0F;
  const std::uint8_t delta = b >> 4;
  if (type == 0) {
    if (delta != 0) Fail("stop field with a non-zero id delta");
    return false;
  }
  if (type > kMaxWireType) Fail("invalid field type " + std::to_string(type));
  std::int16_t& last = last_field_id_.back();
  if (delta == 0) {
    field.id = ReadI16();
  } else {
    const int id = int{last} + delta;
    if (id > std::numeric_limits<std::int16_t>::max()) Fail("field id overflows i16");
    field.id = static_cast<std::int16_t>(id);
  }
  field.type = static_cast<WireType>(type);
  last = field.id;
  return true;
}

bool Reader::FieldBool(const FieldHeader& field) const { return field.type == WireType::kBoolTrue; }

WireType Reader::ElementType(std::uint8_t nibble) {
  if (nibble == 0 || nibble > kMaxWireType) {
    Fail("invalid container element type " + std::to_string(nibble));
  }
  return static_cast<WireType>(nibble);
}

void Reader::CheckCount(std::uint64_t count, std::size_t min_bytes_each,
                        std::string_view what) const {
  if (count > remaining() / min_bytes_each) {
    Fail(std::string(what) + " of " + std::to_string(count) + " elements cannot fit in the " +
         std::to_string(remaining()) + " bytes left");
  }
}

ListHeader Reader::ReadListHeader() {
  const std::uint8_t b = Byte();
  ListHeader header;
  header.element = ElementType(b & 0x0F);
  std::uint64_t size = b >> 4;
  if (size == kLongFormMarker) {
    size = ReadVarUint(5);
    if (size > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
      Fail("list size exceeds i32");
    }
  }
  CheckCount(size, MinEncodedSize(header.element), "list");
  header.size = static_cast<std::uint32_t>(size);
  return header;
}

MapHeader Reader::ReadMapHeader() {
  const std::uint64_t size = ReadVarUint(5);
  MapHeader header;
  if (size == 0) return header;
  if (size > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
    Fail("map size exceeds i32");
  }
  const std::uint8_t types = Byte();
  header.key = ElementType(types >> 4);
  header.value = ElementType(types & 0x0F);
  CheckCount(size, MinEncodedSize(header.key) + MinEncodedSize(header.value), "map");
  header.size = static_cast<std::uint32_t>(size);
  return header;
}

bool Reader::ReadBool() {
  switch (Byte()) {
    case 1:
      return true;
    case 0:
    case 2:
      return false;
    default:
      --pos_;
      Fail("invalid bool element");
  }
}

std::int8_t Reader::ReadI8() { return static_cast<std::int8_t>(Byte()); }

std::int16_t Reader::ReadI16() {
  const std::int32_t value = ReadI32();
  if (value < std::numeric_limits<std::int16_t>::min() ||
      value > std::numeric_limits<std::int16_t>::max()) {
    Fail("i16 value out of range");
  }
  return static_cast<std::int16_t>(value);
}

std::int32_t Reader::ReadI32() {
  const std::uint64_t raw = ReadVarUint(5);
  if (raw > std::numeric_limits<std::uint32_t>::max()) Fail("i32 varint overflows 32 bits");
  return UnZigZag32(static_cast<std::uint32_t>(raw));
}

std::int64_t Reader::ReadI64() { return UnZigZag64(ReadVarUint(10)); }

double Reader::ReadDouble() {
  const auto bytes = Take(8);
  std::uint64_t bits = 0;
  for (int i = 7; i >= 0; --i) bits = (bits << 8) | static_cast<std::uint8_t>(bytes[i]);
  return std::bit_cast<double>(bits);
}

std::span<const std::byte> Reader::ReadBinary() {
  const std::uint64_t size = ReadVarUint(5);
  if (size > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
    Fail("binary length exceeds i32");
  }
  return Take(static_cast<std::size_t>(size));
}

std::string Reader::ReadString() {
  const auto bytes = ReadBinary();
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

std::span<const std::byte> Reader::ReadUuid() { return Take(16); }

void Reader::Skip(WireType type) {
  switch (type) {
    case WireType::kBoolTrue:
    case WireType::kBoolFalse:
      ReadBool();
      return;
    case WireType::kI8:
      Take(1);
      return;
    case WireType::kI16:
      ReadI16();
      return;
    case WireType::kI32:
      ReadI32();
      return;
    case WireType::kI64:
      ReadI64();
      return;
    case WireType::kDouble:
      Take(8);
      return;
    case WireType::kBinary:
      ReadBinary();
      return;
    case WireType::kUuid:
      Take(16);
      return;
    case WireType::kList:
    case WireType::kSet: {
      const ListHeader header = ReadListHeader();
      Enter();
      for (std::uint32_t i = 0; i < header.size; ++i) Skip(header.element);
      Leave();
      return;
    }
    case WireType::kMap: {
      const MapHeader header = ReadMapHeader();
      Enter();
      for (std::uint32_t i = 0; i < header.size; ++i) {
        Skip(header.key);
        Skip(header.value);
      }
      Leave();
      return;
    }
    case WireType::kStruct: {
      StructBegin();
      FieldHeader field;
      while (NextField(field)) SkipField(field);
      StructEnd();
      return;
    }
    case WireType::kStop:
      break;
  }
  Fail("cannot skip a value of type " + std::string(WireTypeName(type)));
}

void Reader::SkipField(const FieldHeader& field) {
  if (field.type == WireType::kBoolTrue || field.type == WireType::kBoolFalse) return;
  Skip(field.type);
}

}  // namespace timef::parquet::thrift
