// A node of a record's recursive device/channel tree. Each source has at most one parent, and the
// tree cannot become cyclic: AddChild refuses both. Sources must be owned by std::shared_ptr.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "timef/json.h"
#include "timef/model/annotation.h"
#include "timef/model/signal.h"

namespace timef::model {

class Record;

// Ownership, lifetime, threading and errors: the model objects' contract (annotation.h,
// Annotatable).
class Source final : public Annotatable, public std::enable_shared_from_this<Source> {
 public:
  explicit Source(std::string name);

  const std::string& name() const { return name_; }
  void set_name(std::string name);
  // An object; the empty object until set.
  const Json& metadata() const { return metadata_.is_null() ? EmptyJsonObject() : metadata_; }
  void set_metadata(Json metadata);

  // Child sources and signals in caller order.
  const std::vector<std::shared_ptr<Source>>& children() const { return children_; }
  const std::vector<std::shared_ptr<Signal>>& signals() const { return signals_; }
  // ValidationError (naming the child, field "parent") when the child already has a parent, is
  // this source, or is one of its ancestors.
  void AddChild(std::shared_ptr<Source> child);
  std::shared_ptr<Source> AddChild(std::string name);
  // ValidationError when the signal already belongs to a source.
  void AddSignal(std::shared_ptr<Signal> signal);

  // The parent source, or null for a root.
  std::shared_ptr<Source> parent() const { return parent_.lock(); }
  // The Record whose source tree holds this source (the root's), or null when the tree is not
  // attached to a record owned by a shared_ptr, or the record is gone.
  std::shared_ptr<Record> record() const;

  // Appends this source's signals, then each child's, in pre-order (the signal ID order of §4).
  void CollectSignals(std::vector<std::shared_ptr<Signal>>* out) const;

  // "source '<name>'".
  std::string Describe() const override;

 private:
  friend class Record;
  std::shared_ptr<Source> SharedThis(const char* field);

  std::string name_;
  Json metadata_;  // null until set (no allocation): metadata() is then the empty object
  std::vector<std::shared_ptr<Source>> children_;
  std::vector<std::shared_ptr<Signal>> signals_;
  std::weak_ptr<Source> parent_;
  std::weak_ptr<Record> record_;  // set on a root by Record::AddSource
};

}  // namespace timef::model
