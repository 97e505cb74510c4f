#include "timef/model/record.h"

#include "model/checks.h"

namespace timef::model {

void Record::set_id(std::optional<int64_t> id) {
  if (id && *id <= 0) {
    internal::Fail(Describe(), "record_id", "a public ID is > 0, got " + std::to_string(*id));
  }
  id_ = id;
}

void Record::set_time_span(std::optional<TimeInterval> span) {
  if (span && span->start_us > span->end_us) {
    internal::Fail(
        Describe(), "time_span",
        "start " + std::to_string(span->start_us) + " > end " + std::to_string(span->end_us));
  }
  time_span_ = span;
}

void Record::set_metadata(Json metadata) {
  internal::CheckMetadata(
      metadata, [this] { return Describe(); }, "metadata");
  metadata_ = std::move(metadata);
}

void Record::set_import_marker(std::optional<ImportMarker> marker) {
  if (marker) marker->Check(Describe(), "import");
  import_marker_ = std::move(marker);
}

void Record::AddSource(std::shared_ptr<Source> source) {
  const std::string where = "sources[" + std::to_string(sources_.size()) + "]";
  if (!source) internal::Fail(Describe(), where, "a source must not be null");
  if (auto parent = source->parent()) {
    internal::Fail(source->Describe(), "parent",
                   "a root source has no parent, but it is a child of " + parent->Describe());
  }
  source->record_ = weak_from_this();
  sources_.push_back(std::move(source));
}

std::shared_ptr<Source> Record::AddSource(std::string name) {
  auto source = std::make_shared<Source>(std::move(name));
  AddSource(source);
  return source;
}

std::vector<std::shared_ptr<Signal>> Record::Signals() const {
  std::vector<std::shared_ptr<Signal>> out;
  for (const auto& source : sources_) source->CollectSignals(&out);
  return out;
}

std::string Record::Describe() const {
  return id_ ? "record " + std::to_string(*id_) : std::string("record without id");
}

}  // namespace timef::model
