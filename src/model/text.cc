#include "timef/model/text.h"

#include "timef/error.h"

namespace timef::model {

Text Text::Lazy(std::shared_ptr<const LazyText> source) {
  if (!source) throw ValidationError("lazy text: the source must not be null");
  Text text;
  text.lazy_ = std::move(source);
  return text;
}

Text Text::Loaded(std::string value, std::shared_ptr<const StoredTextOrigin> origin) {
  if (!origin) throw ValidationError("loaded text: the origin must not be null");
  Text text(std::move(value));
  text.loaded_from_ = std::move(origin);
  return text;
}

int64_t Text::size() const { return lazy_ ? lazy_->size() : static_cast<int64_t>(value_.size()); }

std::string Text::Read() const { return lazy_ ? lazy_->Read() : value_; }

bool operator==(const Text& a, const Text& b) {
  if (a.size() != b.size()) return false;
  if (a.lazy_ && b.lazy_ && (a.lazy_ == b.lazy_ || a.lazy_->SameStoredValue(*b.lazy_))) return true;
  if (!a.lazy_ && !b.lazy_) return a.value_ == b.value_;
  return a.Read() == b.Read();
}

bool operator==(const Text& a, std::string_view b) {
  if (a.size() != static_cast<int64_t>(b.size())) return false;
  // compare(), not ==: with Text implicitly constructible from std::string, `string == string_view`
  // would pick this very operator and recurse.
  return a.lazy_ ? a.lazy_->Read().compare(b) == 0 : a.value_.compare(b) == 0;
}

TextList TextList::Lazy(std::shared_ptr<const LazyTextList> source) {
  if (!source) throw ValidationError("lazy text list: the source must not be null");
  TextList list;
  list.lazy_ = std::move(source);
  return list;
}

TextList TextList::Loaded(std::vector<std::string> values,
                          std::shared_ptr<const StoredTextOrigin> origin) {
  if (!origin) throw ValidationError("loaded text list: the origin must not be null");
  TextList list(std::move(values));
  list.loaded_from_ = std::move(origin);
  return list;
}

int64_t TextList::size() const {
  return lazy_ ? lazy_->size() : static_cast<int64_t>(values_.size());
}

std::vector<std::string> TextList::Read() const { return lazy_ ? lazy_->Read() : values_; }

bool operator==(const TextList& a, const TextList& b) {
  if (a.size() != b.size()) return false;
  if (a.lazy_ && b.lazy_ && (a.lazy_ == b.lazy_ || a.lazy_->SameStoredValue(*b.lazy_))) return true;
  if (!a.lazy_ && !b.lazy_) return a.values_ == b.values_;
  return a.Read() == b.Read();
}

bool operator==(const TextList& a, const std::vector<std::string>& b) {
  if (a.size() != static_cast<int64_t>(b.size())) return false;
  return a.lazy_ ? a.lazy_->Read() == b : a.values_ == b;
}

}  // namespace timef::model
