#include "core/json_forms.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_set>
#include <vector>

#include "core/text.h"
#include "timef/error.h"

namespace timef {
namespace {

// Deep enough for any document this project writes; shallow enough that the recursive writer and
// nlohmann's recursive destructor cannot exhaust the stack on hostile input.
constexpr size_t kMaxJsonDepth = 512;

using core::AppendJsonPointerToken;

// ---------------------------------------------------------------------------------------------
// Strict parsing: a SAX consumer that builds the value itself so it can refuse duplicate keys
// (nlohmann's own DOM builder silently keeps the last one) and name where they are.

class StrictBuilder {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  bool null() { return Add(Json(nullptr)); }
  bool boolean(bool value) { return Add(Json(value)); }
  bool number_integer(number_integer_t value) { return Add(Json(value)); }
  bool number_unsigned(number_unsigned_t value) { return Add(Json(value)); }
  // nlohmann reports a double overflow ("1e400") through parse_error() itself.
  bool number_float(number_float_t value, const string_t&) { return Add(Json(value)); }
  bool string(string_t& value) { return Add(Json(std::move(value))); }
  bool binary(binary_t&) {
    problem_ = NextPointer() + ": binary values are not JSON";
    return false;
  }
  bool start_object(std::size_t) { return Open(Json::object()); }
  bool key(string_t& key) {
    Frame& top = stack_.back();
    if (!top.keys.insert(key).second) {
      std::string pointer = PointerOf(stack_.size());
      AppendJsonPointerToken(pointer, key);
      problem_ = core::PrintableForMessage(pointer) + ": duplicate object key '" +
                 core::PrintableForMessage(key) + "'";
      return false;
    }
    top.pending_key = std::move(key);
    return true;
  }
  bool end_object() {
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) { return Open(Json::array()); }
  bool end_array() {
    stack_.pop_back();
    return true;
  }
  // `position` counts the bytes read, so the offending byte is at position - 1 (0-based).
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& error) {
    std::string_view what = error.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " tag; keep its line/column text.
    if (const size_t tag_end = what.find("] "); what.starts_with("[") && tag_end != what.npos) {
      what.remove_prefix(tag_end + 2);
    }
    const size_t offset = position > 0 ? position - 1 : 0;
    problem_ = "byte " + std::to_string(offset) + ": " + std::string(what);
    return false;
  }

  Json& root() { return root_; }
  const std::string& problem() const { return problem_; }

 private:
  struct Frame {
    Json* container;
    std::string token;                     // how the parent reaches this container
    std::unordered_set<std::string> keys;  // objects only
    std::string pending_key;               // objects only: key of the next value
  };

  // Pointer of the container at `depth` (0 = the root value).
  std::string PointerOf(size_t depth) const {
    std::string pointer;
    for (size_t i = 1; i < depth; ++i) AppendJsonPointerToken(pointer, stack_[i].token);
    return pointer;
  }

  std::string NextToken() const {
    if (stack_.empty()) return "";
    const Frame& top = stack_.back();
    if (top.container->is_array()) return std::to_string(top.container->size());
    return top.pending_key;
  }

  std::string NextPointer() const {
    if (stack_.empty()) return "(root)";
    std::string pointer = PointerOf(stack_.size());
    AppendJsonPointerToken(pointer, NextToken());
    return core::PrintableForMessage(pointer);
  }

  Json* Insert(Json&& value) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Frame& top = stack_.back();
    if (top.container->is_array()) {
      auto& array = top.container->get_ref<Json::array_t&>();
      array.push_back(std::move(value));
      return &array.back();
    }
    // Uniqueness is already checked in key(), so append without ordered_map's linear search.
    auto& object = top.container->get_ref<Json::object_t&>();
    object.Container::emplace_back(std::move(top.pending_key), std::move(value));
    return &object.back().second;
  }

  bool Add(Json&& value) {
    Insert(std::move(value));
    return true;
  }

  bool Open(Json&& empty) {
    if (stack_.size() >= kMaxJsonDepth) {
      problem_ =
          NextPointer() + ": nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels";
      return false;
    }
    std::string token = NextToken();
    Json* container = Insert(std::move(empty));
    stack_.push_back(Frame{container, std::move(token), {}, {}});
    return true;
  }

  Json root_;
  std::vector<Frame> stack_;
  std::string problem_;
};

// ---------------------------------------------------------------------------------------------
// Writing (§2.5). Both forms share one writer; `indent_` < 0 selects the compact form.

// Where the value being written sits; the pointer string is built only for an error.
struct PathFrame {
  const PathFrame* parent;
  std::string_view key;
  size_t index;
  bool is_key;
};

std::string PointerOf(const PathFrame* frame) {
  std::vector<const PathFrame*> frames;
  for (; frame != nullptr; frame = frame->parent) frames.push_back(frame);
  std::string pointer;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    AppendJsonPointerToken(pointer,
                           (*it)->is_key ? std::string((*it)->key) : std::to_string((*it)->index));
  }
  return core::PrintableForMessage(pointer);
}

[[noreturn]] void Fail(const PathFrame* path, std::string_view problem) {
  throw ValidationError(ErrorSite{.where = PointerOf(path)}, problem);
}

class JsonWriter {
 public:
  explicit JsonWriter(bool pretty) : pretty_(pretty) {}

  void Write(const Json& value, const PathFrame* path, size_t depth) {
    switch (value.type()) {
      case Json::value_t::null:
        out_ += "null";
        return;
      case Json::value_t::boolean:
        out_ += value.get<bool>() ? "true" : "false";
        return;
      case Json::value_t::number_integer:
        AppendInteger(value.get<Json::number_integer_t>());
        return;
      case Json::value_t::number_unsigned:
        AppendInteger(value.get<Json::number_unsigned_t>());
        return;
      case Json::value_t::number_float:
        AppendDouble(value.get<Json::number_float_t>(), path);
        return;
      case Json::value_t::string:
        AppendString(value.get_ref<const Json::string_t&>(), path, "string");
        return;
      case Json::value_t::array:
        WriteArray(value, path, depth);
        return;
      case Json::value_t::object:
        WriteObject(value, path, depth);
        return;
      case Json::value_t::binary:
        Fail(path, "binary values cannot be written as JSON");
      case Json::value_t::discarded:
        Fail(path, "a discarded value cannot be written as JSON");
    }
    Fail(path, "unknown JSON value type");
  }

  std::string Take() { return std::move(out_); }

 private:
  template <typename Integer>
  void AppendInteger(Integer value) {
    char buffer[24];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    out_.append(buffer, end);
  }

  void AppendDouble(double value, const PathFrame* path) {
    if (std::isnan(value)) Fail(path, "NaN cannot be written as JSON");
    if (std::isinf(value)) Fail(path, "infinity cannot be written as JSON");
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    const std::string_view text(buffer, static_cast<size_t>(end - buffer));
    out_ += text;
    // DECIDE (docs/format.md §2.7): an integral double keeps a ".0" so it reads back as a double.
    if (text.find_first_of(".e") == std::string_view::npos) out_ += ".0";
  }

  void AppendString(std::string_view text, const PathFrame* path, std::string_view what) {
    if (!core::IsValidUtf8(text)) {
      Fail(path,
           "invalid UTF-8 in " + std::string(what) + " '" + core::PrintableForMessage(text) + "'");
    }
    out_ += '"';
    core::AppendJsonEscaped(text, out_);
    out_ += '"';
  }

  void NewLine(size_t depth) {
    if (!pretty_) return;
    out_ += '\n';
    out_.append(2 * depth, ' ');
  }

  void CheckDepth(const PathFrame* path, size_t depth) {
    if (depth >= kMaxJsonDepth) {
      Fail(path, "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    }
  }

  void WriteArray(const Json& value, const PathFrame* path, size_t depth) {
    CheckDepth(path, depth);
    const auto& array = value.get_ref<const Json::array_t&>();
    if (array.empty()) {
      out_ += "[]";
      return;
    }
    out_ += '[';
    for (size_t i = 0; i < array.size(); ++i) {
      if (i > 0) out_ += ',';
      NewLine(depth + 1);
      const PathFrame child{path, {}, i, false};
      Write(array[i], &child, depth + 1);
    }
    NewLine(depth);
    out_ += ']';
  }

  void WriteObject(const Json& value, const PathFrame* path, size_t depth) {
    CheckDepth(path, depth);
    const auto& object = value.get_ref<const Json::object_t&>();
    if (object.empty()) {
      out_ += "{}";
      return;
    }
    std::vector<const Json::object_t::value_type*> members;
    members.reserve(object.size());
    for (const auto& member : object) members.push_back(&member);
    if (!pretty_) {
      // std::string compares as unsigned char, i.e. UTF-8 byte order = code point order.
      std::sort(members.begin(), members.end(),
                [](const auto* a, const auto* b) { return a->first < b->first; });
    }
    out_ += '{';
    bool first = true;
    for (const auto* member : members) {
      if (!first) out_ += ',';
      first = false;
      NewLine(depth + 1);
      const PathFrame child{path, member->first, 0, true};
      AppendString(member->first, &child, "object key");
      out_ += pretty_ ? ": " : ":";
      Write(member->second, &child, depth + 1);
    }
    NewLine(depth);
    out_ += '}';
  }

  bool pretty_;
  std::string out_;
};

}  // namespace

std::optional<Json> ParseJsonStrict(std::string_view text, std::string* problem) {
  auto fail = [&](std::string message) -> std::optional<Json> {
    if (problem != nullptr) *problem = std::move(message);
    return std::nullopt;
  };
  if (text.starts_with("\xEF\xBB\xBF"))
    return fail("byte 0: a UTF-8 byte order mark is not allowed");
  // Checked up front so every ill-formed byte (inside strings or not) gets the same message.
  if (const size_t bad = core::FindInvalidUtf8(text); bad != std::string_view::npos) {
    return fail("byte " + std::to_string(bad) + ": invalid UTF-8");
  }
  StrictBuilder builder;
  const bool ok = Json::sax_parse(text.begin(), text.end(), &builder, Json::input_format_t::json,
                                  /*strict=*/true);
  if (!ok) {
    return fail(builder.problem().empty() ? "invalid JSON" : builder.problem());
  }
  return std::move(builder.root());
}

std::string WriteManifestJson(const Json& value) {
  JsonWriter writer(/*pretty=*/true);
  writer.Write(value, nullptr, 0);
  std::string out = writer.Take();
  out += '\n';
  return out;
}

std::string WriteCompactJson(const Json& value) {
  JsonWriter writer(/*pretty=*/false);
  writer.Write(value, nullptr, 0);
  return writer.Take();
}

namespace core {

void AppendJsonEscaped(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  size_t run_start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(text.substr(run_start, i - run_start));
    run_start = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
    }
  }
  out.append(text.substr(run_start));
}

void AppendJsonPointerToken(std::string& pointer, std::string_view token) {
  pointer += '/';
  for (char c : token) {
    if (c == '~') {
      pointer += "~0";
    } else if (c == '/') {
      pointer += "~1";
    } else {
      pointer += c;
    }
  }
}

}  // namespace core
}  // namespace timef
