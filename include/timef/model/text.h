// Text values of the model: held inline, or stored elsewhere and read on demand.
//
// A prompt, a rationale, a text target or an annotation's text value can live in a packed payload
// file of a release. The reader hands such a value out without reading it (its length is known from
// the catalog), so Text and TextList wrap either an inline value or a LazyText/LazyTextList source.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace timef::model {

// A string stored outside the model. Implementations (the reader's text handles) must be
// thread-compatible and must not cache unless asked to load.
class LazyText {
 public:
  virtual ~LazyText() = default;
  // UTF-8 bytes, known without reading.
  virtual int64_t size() const = 0;
  // Reads the value (each call may read storage again).
  virtual std::string Read() const = 0;
  // True when `other` names the same stored value (same row of the same file), so the two are equal
  // without reading either.
  virtual bool SameStoredValue(const LazyText& /*other*/) const { return false; }
};

// A list of strings stored outside the model.
class LazyTextList {
 public:
  virtual ~LazyTextList() = default;
  // Number of elements, known without reading.
  virtual int64_t size() const = 0;
  virtual std::vector<std::string> Read() const = 0;
  virtual bool SameStoredValue(const LazyTextList& /*other*/) const { return false; }
};

// Where a loaded value is stored in a release. Opaque to the model: the reader attaches it to text
// it loads eagerly and the writer recognises it, so that writing the value again reuses the stored
// bytes instead of packing them again (docs/format.md §10.2). Holds no reader state.
class StoredTextOrigin {
 public:
  virtual ~StoredTextOrigin() = default;
};

// UTF-8 text: inline, or lazy. Compares by content; unequal sizes compare unequal without a read.
// A value type: a copy shares the lazy source (std::shared_ptr<const LazyText>), which lives as
// long as any copy. Const access from several threads is safe when the source allows it (the
// reader's may be used from any thread); reading a lazy value may throw FormatError/FileError.
class Text {
 public:
  Text() = default;
  Text(std::string value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Text(std::string_view value) : value_(value) {}        // NOLINT(google-explicit-constructor)
  Text(const char* value) : value_(value) {}             // NOLINT(google-explicit-constructor)
  // A value that `source` reads on demand. `source` must not be null.
  static Text Lazy(std::shared_ptr<const LazyText> source);
  // Inline text that was read from storage at `origin` (not null): it behaves as inline text, and
  // a writer still reuses the stored bytes.
  static Text Loaded(std::string value, std::shared_ptr<const StoredTextOrigin> origin);

  // UTF-8 bytes; never reads.
  int64_t size() const;
  bool empty() const { return size() == 0; }
  // True when the value is held in memory.
  bool is_loaded() const { return lazy_ == nullptr; }
  // The value (a copy when inline; a read of the source when lazy).
  std::string Read() const;
  // The inline value, or nullptr when lazy.
  const std::string* inline_value() const { return lazy_ ? nullptr : &value_; }
  // The lazy source, or null when inline.
  const std::shared_ptr<const LazyText>& lazy_source() const { return lazy_; }
  // Where a Loaded() value was read from; null for lazy text and text given inline.
  const std::shared_ptr<const StoredTextOrigin>& loaded_from() const { return loaded_from_; }

  friend bool operator==(const Text& a, const Text& b);
  friend bool operator==(const Text& a, std::string_view b);

 private:
  std::string value_;
  std::shared_ptr<const LazyText> lazy_;
  std::shared_ptr<const StoredTextOrigin> loaded_from_;
};

// A list of UTF-8 strings: inline, or lazy. Compares by content like Text; ownership, threading
// and errors as for Text.
class TextList {
 public:
  TextList() = default;
  TextList(std::vector<std::string> values)  // NOLINT(google-explicit-constructor)
      : values_(std::move(values)) {}
  TextList(std::initializer_list<std::string> values) : values_(values) {}
  static TextList Lazy(std::shared_ptr<const LazyTextList> source);
  // Inline, read from storage at `origin` (not null); see Text::Loaded.
  static TextList Loaded(std::vector<std::string> values,
                         std::shared_ptr<const StoredTextOrigin> origin);

  // Number of elements; never reads.
  int64_t size() const;
  bool empty() const { return size() == 0; }
  bool is_loaded() const { return lazy_ == nullptr; }
  std::vector<std::string> Read() const;
  const std::vector<std::string>* inline_value() const { return lazy_ ? nullptr : &values_; }
  const std::shared_ptr<const LazyTextList>& lazy_source() const { return lazy_; }
  const std::shared_ptr<const StoredTextOrigin>& loaded_from() const { return loaded_from_; }

  friend bool operator==(const TextList& a, const TextList& b);
  friend bool operator==(const TextList& a, const std::vector<std::string>& b);

 private:
  std::vector<std::string> values_;
  std::shared_ptr<const LazyTextList> lazy_;
  std::shared_ptr<const StoredTextOrigin> loaded_from_;
};

}  // namespace timef::model
