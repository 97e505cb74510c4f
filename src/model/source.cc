#include "timef/model/source.h"

#include "model/checks.h"
#include "timef/model/record.h"

namespace timef::model {

Source::Source(std::string name) : name_(std::move(name)) {
  internal::CheckUtf8(
      name_, [this] { return Describe(); }, "name");
}

void Source::set_name(std::string name) {
  internal::CheckUtf8(
      name, [this] { return Describe(); }, "name");
  name_ = std::move(name);
}

void Source::set_metadata(Json metadata) {
  internal::CheckMetadata(
      metadata, [this] { return Describe(); }, "metadata");
  metadata_ = std::move(metadata);
}

std::shared_ptr<Source> Source::SharedThis(const char* field) {
  auto self = weak_from_this().lock();
  if (!self) {
    internal::Fail(Describe(), field, "a source must be owned by a std::shared_ptr");
  }
  return self;
}

void Source::AddChild(std::shared_ptr<Source> child) {
  const std::string where = "children[" + std::to_string(children_.size()) + "]";
  if (!child) internal::Fail(Describe(), where, "a child source must not be null");
  auto self = SharedThis("children");
  if (auto parent = child->parent()) {
    internal::Fail(
        child->Describe(), "parent",
        "the source already has a parent (" + parent->Describe() + "); a source has one parent");
  }
  for (auto ancestor = self; ancestor; ancestor = ancestor->parent()) {
    if (ancestor == child) {
      internal::Fail(child->Describe(), "parent",
                     "adding it under " + Describe() + " would make a cycle");
    }
  }
  child->parent_ = self;
  children_.push_back(std::move(child));
}

std::shared_ptr<Record> Source::record() const {
  const Source* root = this;
  std::shared_ptr<Source> parent;
  while ((parent = root->parent()) != nullptr) root = parent.get();
  return root->record_.lock();
}

std::shared_ptr<Source> Source::AddChild(std::string name) {
  auto child = std::make_shared<Source>(std::move(name));
  AddChild(child);
  return child;
}

void Source::AddSignal(std::shared_ptr<Signal> signal) {
  const std::string where = "signals[" + std::to_string(signals_.size()) + "]";
  if (!signal) internal::Fail(Describe(), where, "a signal must not be null");
  auto self = SharedThis("signals");
  if (auto owner = signal->source()) {
    internal::Fail(signal->Describe(), "source",
                   "the signal already belongs to " + owner->Describe());
  }
  signal->source_ = self;
  signals_.push_back(std::move(signal));
}

void Source::CollectSignals(std::vector<std::shared_ptr<Signal>>* out) const {
  out->insert(out->end(), signals_.begin(), signals_.end());
  for (const auto& child : children_) child->CollectSignals(out);
}

std::string Source::Describe() const { return "source " + internal::Quoted(name_); }

}  // namespace timef::model
