// One spec per spec_type across everything an import reads (private to src/importers/).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "timef/model.h"

namespace timef::importers {

// The spec name of a spec_type: the modality table's name for one of its spec_types, "Signal" for
// the generic one, else the spec_type itself.
std::string SpecNameOf(std::string_view spec_type);

class SpecTable {
 public:
  // The one shared spec of `spec.spec_type` (made with Spec::Make the first time). ValidationError
  // naming `file` and `field` when the spec_type is already held by a different spec, naming the
  // channel that holds it.
  std::shared_ptr<const model::Spec> Intern(model::Spec spec, const std::filesystem::path& file,
                                            const std::string& field, const std::string& label);

 private:
  struct Entry {
    std::shared_ptr<const model::Spec> spec;
    std::filesystem::path file;
    std::string label;
  };
  std::map<std::string, Entry> by_type_;
};

}  // namespace timef::importers
