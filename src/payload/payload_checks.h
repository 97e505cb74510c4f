// The checks docs/format.md §9 makes on the first read of a payload value, on values already
// decoded: each throws FormatError whose site is the catalog's file name and, as `where`, the text
// key or the axis the value belongs to.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "payload/payload_reader.h"

namespace timef::payload {

enum class TextKind { kText, kTextList };

std::string_view TextKindName(TextKind kind);

// "text key <key>".
std::string TextSubject(const TextRef& ref);

// `found` is the kind whose column is non-null in the row; `ref` expected `expected`.
void CheckTextKind(const TextRef& ref, TextKind expected, TextKind found);
// `length` is the UTF-8 byte count (text) or the element count (text_list).
void CheckTextLength(const TextRef& ref, TextKind kind, std::int64_t length);
// The stored string is UTF-8 (`what` names it in the message, e.g. "text" or "text_list[2]").
void CheckStoredUtf8(const TextRef& ref, std::string_view text, const std::string& what);

// Count, digest, order and first/last against the axis.
void CheckOffsets(const OffsetsRef& ref, std::span<const std::int64_t> offsets);

}  // namespace timef::payload
