// A canonical JSON rendering of a dataset, for round-trip tests and debugging.
//
// It holds every field that the round-trip guarantee (docs/format.md §13) restores, in restored
// order: records and tasks by ID, sibling sources by name (stable), signals by ID, annotations in
// attach order. References appear as public IDs; an annotation reference as the path of its
// occurrence. Shared objects appear once: axes and annotation contents are listed in first-seen
// order and referred to by index, so a dump also shows which signals share an axis and which
// occurrences share a content. Two datasets that a reader would treat as equal have equal dumps.
#pragma once

#include <memory>
#include <span>

#include "timef/json.h"

namespace timef::model {

class Dataset;
class Record;

struct DumpOptions {
  // Also render signal values and irregular offsets; loads lazy values. A signal's numbers are one
  // string of space-separated tokens ("data": floats as the hex of their bit patterns, integers in
  // decimal), its strings an array; "validity" lists 0/1 per value (empty when nothing is null).
  bool values = false;
};

// Requires every record, signal and task to have an ID (ValidationError otherwise).
Json DumpDataset(const Dataset& dataset, const DumpOptions& options = {});
// The same rendering of `records` alone (by ID; "records", "axes" and "contents" as above), e.g.
// to compare what two reads of the same records built.
Json DumpRecords(std::span<const std::shared_ptr<Record>> records, const DumpOptions& options = {});

}  // namespace timef::model
