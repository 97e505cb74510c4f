// The Thrift compact protocol, as far as Parquet metadata needs it: a byte-level writer and a
// bounds-checked reader. Struct layouts live in metadata.cc; this file knows only the wire format.
//
// Reader guarantees, for any input: every read is checked against the end of the buffer, a
// container may not claim more elements than the bytes left could hold, and nesting (structs,
// lists, sets, maps) deeper than kMaxNestingDepth is refused. Violations throw DecodeErrorAt with
// the offset where decoding stopped, so hostile input can neither crash nor allocate much.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace timef::parquet::thrift {

// Compact-protocol type codes, as in field headers and as list/map element types. A bool element
// type may be written as either boolean code; readers accept both.
enum class WireType : std::uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kI8 = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
  kUuid = 13,
};

inline constexpr int kMaxNestingDepth = 64;

std::string_view WireTypeName(WireType type);

struct FieldHeader {
  std::int16_t id = 0;
  WireType type = WireType::kStop;
};

struct ListHeader {
  WireType element = WireType::kStop;
  std::uint32_t size = 0;
};

struct MapHeader {
  WireType key = WireType::kStop;
  WireType value = WireType::kStop;
  std::uint32_t size = 0;
};

// Appends compact-protocol bytes to a caller-owned buffer. Field ids inside one struct should be
// written in increasing order (the short delta form is then used); other orders are still valid.
class Writer {
 public:
  explicit Writer(std::vector<std::byte>& out) : out_(out) {}

  void StructBegin();
  void StructEnd();  // writes the stop field

  // A field header for a value written next with the value methods below (struct, list, ...).
  void FieldBegin(std::int16_t id, WireType type);
  // Complete fields. A bool field's value lives in its header.
  void FieldBool(std::int16_t id, bool value);
  void FieldI8(std::int16_t id, std::int8_t value);
  void FieldI16(std::int16_t id, std::int16_t value);
  void FieldI32(std::int16_t id, std::int32_t value);
  void FieldI64(std::int16_t id, std::int64_t value);
  void FieldDouble(std::int16_t id, double value);
  void FieldBinary(std::int16_t id, std::string_view value);

  // Container headers; `element`, `key` and `value` use kBoolTrue for bool.
  void ListBegin(WireType element, std::uint32_t size);
  void SetBegin(WireType element, std::uint32_t size) { ListBegin(element, size); }
  void MapBegin(WireType key, WireType value, std::uint32_t size);

  // Values: list/set/map elements, or the value after FieldBegin.
  void Bool(bool value);  // element form: one byte, 1 = true, 2 = false
  void I8(std::int8_t value);
  void I16(std::int16_t value);
  void I32(std::int32_t value);
  void I64(std::int64_t value);
  void Double(double value);
  void Binary(std::string_view value);
  void Uuid(std::span<const std::byte, 16> value);
  // Already-encoded bytes of one value (e.g. a struct kept verbatim from a decoded file).
  void Raw(std::span<const std::byte> bytes);

  void VarUint(std::uint64_t value);

 private:
  std::vector<std::byte>& out_;
  std::vector<std::int16_t> last_field_id_;  // one entry per open struct
};

// Reads compact-protocol bytes from a buffer it does not own. All methods throw DecodeErrorAt on
// malformed or truncated input.
class Reader {
 public:
  explicit Reader(std::span<const std::byte> data) : data_(data) {}

  std::size_t position() const noexcept { return pos_; }
  std::size_t remaining() const noexcept { return data_.size() - pos_; }
  std::span<const std::byte> data() const noexcept { return data_; }

  void StructBegin();
  // Reads the next field header; false at the struct's stop field (then call StructEnd).
  bool NextField(FieldHeader& field);
  void StructEnd();

  // A bool field's value, carried by its header type.
  bool FieldBool(const FieldHeader& field) const;

  // Container headers. The size is checked against the bytes left (every element takes at least
  // one byte), so a caller may reserve `size` elements.
  ListHeader ReadListHeader();  // also for sets
  MapHeader ReadMapHeader();

  bool ReadBool();  // element form
  std::int8_t ReadI8();
  std::int16_t ReadI16();
  std::int32_t ReadI32();
  std::int64_t ReadI64();
  double ReadDouble();
  // A view into the buffer; valid as long as the buffer.
  std::span<const std::byte> ReadBinary();
  std::string ReadString();
  std::span<const std::byte> ReadUuid();

  std::uint64_t ReadVarUint(int max_bytes = 10);

  // Skips one list/set/map element (or a non-bool field value) of `type`, with all it nests.
  void Skip(WireType type);
  // Skips the value of `field` (a bool field has none: its value is in the header).
  void SkipField(const FieldHeader& field);

  [[noreturn]] void Fail(std::string_view problem) const;

 private:
  std::span<const std::byte> Take(std::size_t n);
  std::uint8_t Byte();
  WireType ElementType(std::uint8_t nibble);
  void Enter();
  void Leave() noexcept { --depth_; }
  void CheckCount(std::uint64_t count, std::size_t min_bytes_each, std::string_view what) const;

  std::span<const std::byte> data_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::vector<std::int16_t> last_field_id_;  // one entry per open struct
};

}  // namespace timef::parquet::thrift
