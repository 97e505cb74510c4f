#include "importers/spec_table.h"

#include "timef/error.h"
#include "timef/importers.h"

namespace timef::importers {
namespace {

std::string SpecText(const model::Spec& spec) {
  return "unit " + spec.unit.value_or("unknown") + ", dtype " + std::string(ToString(spec.dtype)) +
         ", name '" + spec.name + "'";
}

}  // namespace

std::string SpecNameOf(std::string_view spec_type) {
  for (const ModalityEntry& entry : ModalityTable()) {
    if (entry.spec_type == spec_type) return std::string(entry.name);
  }
  if (spec_type == kGenericSpecType) return std::string(kGenericSpecName);
  return std::string(spec_type);
}

std::shared_ptr<const model::Spec> SpecTable::Intern(model::Spec spec,
                                                     const std::filesystem::path& file,
                                                     const std::string& field,
                                                     const std::string& label) {
  std::shared_ptr<const model::Spec> made = model::Spec::Make(std::move(spec));
  auto [it, inserted] = by_type_.emplace(made->spec_type, Entry{made, file, label});
  if (inserted) return made;
  if (*it->second.spec == *made) return it->second.spec;
  throw ValidationError(
      ErrorSite{.file = file, .where = field},
      "channel '" + label + "' would be spec_type '" + made->spec_type + "' with " +
          SpecText(*made) + ", but channel '" + it->second.label + "' of " +
          it->second.file.string() + " made it " + SpecText(*it->second.spec) +
          "; one spec_type has one spec: map one of the labels to another spec_type "
          "(--spec-type LABEL=TYPE)");
}

}  // namespace timef::importers
