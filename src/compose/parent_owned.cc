#include "compose/parent_owned.h"

#include <sstream>

#include "timef/error.h"

namespace timef::compose {
namespace {

std::string Address(const void* p) {
  std::ostringstream out;
  out << p;
  return out.str();
}

void AddInherited(const std::string& prefix, const model::Annotatable& object, ParentOwned& out) {
  int index = 0;
  for (const auto& a : object.annotations()) {
    if (!a->inherited()) continue;  // an overlay: the child's own
    const std::string at = prefix + ".annotations[" + std::to_string(index++) + "]";
    out.emplace_back(at, Address(a.get()));
    out.emplace_back(at + ".content", Address(a->content().get()));
    out.emplace_back(at + ".inherited_from", *a->inherited_from());
    out.emplace_back(at + ".span", std::string(model::SpanTypeName(a->span())));
    out.emplace_back(at + ".confidence",
                     a->confidence() ? std::to_string(*a->confidence()) : std::string("null"));
    out.emplace_back(at + ".provenance", a->provenance() ? a->provenance()->dump() : "null");
    out.emplace_back(at + ".metadata", a->metadata().dump());
  }
  out.emplace_back(prefix + ".inherited annotations", std::to_string(index));
}

void AddSource(const std::string& prefix, const model::Source& source, ParentOwned& out) {
  out.emplace_back(prefix + ".name", source.name());
  out.emplace_back(prefix + ".metadata", source.metadata().dump());
  AddInherited(prefix, source, out);
  out.emplace_back(prefix + ".signals", std::to_string(source.signals().size()));
  for (const auto& signal : source.signals()) {
    const std::string at = prefix + ".signal '" + signal->name() + "'";
    out.emplace_back(at + ".id", signal->id() ? std::to_string(*signal->id()) : "none");
    out.emplace_back(at + ".name", signal->name());
    out.emplace_back(at + ".metadata", signal->metadata().dump());
    out.emplace_back(at + ".source_id", signal->source_id().value_or("null"));
    out.emplace_back(at + ".spec", Address(signal->spec().get()));
    out.emplace_back(at + ".axis", Address(signal->axis().get()));
    out.emplace_back(at + ".values", Address(signal->values().get()));
    out.emplace_back(at + ".n_values", std::to_string(signal->n_values()));
    AddInherited(at, *signal, out);
  }
  out.emplace_back(prefix + ".children", std::to_string(source.children().size()));
  for (const auto& child : source.children()) {
    AddSource(prefix + ".source '" + child->name() + "'", *child, out);
  }
}

}  // namespace

ParentOwned ParentOwnedOf(const model::Record& record) {
  ParentOwned out;
  out.emplace_back("metadata", record.metadata().dump());
  out.emplace_back("start_time_us", record.start_time_us() ? std::to_string(*record.start_time_us())
                                                           : std::string("null"));
  const auto& span = record.time_span();
  out.emplace_back("time_span",
                   span ? std::to_string(span->start_us) + ".." + std::to_string(span->end_us)
                        : std::string("null"));
  AddInherited("record", record, out);
  out.emplace_back("sources", std::to_string(record.sources().size()));
  for (const auto& source : record.sources()) {
    AddSource("source '" + source->name() + "'", *source, out);
  }
  return out;
}

ParentOwned ParentOwnedOf(const model::Task& task) {
  ParentOwned out;
  out.emplace_back("type", std::string(ToString(task.type())));
  out.emplace_back("metadata", task.metadata().dump());
  out.emplace_back("prompt", task.prompt() ? std::to_string(task.prompt()->size()) : "null");
  out.emplace_back("split", task.split() ? std::string(ToString(*task.split())) : "null");
  std::string inputs;
  for (const auto& r : task.inputs()) inputs += Address(r.get()) + ",";
  out.emplace_back("inputs", inputs);
  AddInherited("task", task, out);
  return out;
}

void CheckUnchanged(const std::string& object, const ParentOwned& before, const ParentOwned& now) {
  for (size_t i = 0; i < before.size() || i < now.size(); ++i) {
    if (i < before.size() && i < now.size() && before[i] == now[i]) continue;
    const std::string field = i < before.size() ? before[i].first : now[i].first;
    throw ValidationError({.object = object, .where = field},
                          "parent-owned: imported data may not be changed by the child (add an "
                          "overlay annotation instead)");
  }
}

}  // namespace timef::compose
