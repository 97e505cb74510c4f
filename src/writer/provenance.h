// What a write of a child release copies from its parents' manifests (docs/format.md §5.7): the
// card of each parent by alias and the card of every ancestor by ref. timef::Composer gathers them
// from the parent readers; the public WriteRelease has none, so it refuses datasets with parents.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "timef/manifest.h"
#include "timef/model.h"
#include "timef/writer.h"

namespace timef::writer {

struct Provenance {
  std::map<std::string, manifest::Card> parent_cards;  // alias → card
  std::map<std::string, manifest::Card> lineage;       // ref → card
};

// WriteReleaseTo with the provenance of the dataset's parents: `provenance.parent_cards` must
// have exactly the dataset's aliases, each card naming that parent's release (ValidationError).
WriteResult WriteChildReleaseTo(model::Dataset& dataset, manifest::Card card,
                                const std::filesystem::path& release_dir,
                                const WriteOptions& options, const Provenance& provenance);

}  // namespace timef::writer
