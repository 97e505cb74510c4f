// Assembles hello-world and its card and write options.
#include "demo/hello_parts.h"
#include "timef/demo.h"

namespace timef::demo {

std::unique_ptr<model::Dataset> BuildHelloWorld() {
  auto dataset =
      std::make_unique<model::Dataset>(std::string(kHelloWorldId), std::string(kHelloWorldVersion));
  internal::HelloParts parts = internal::AddHelloRecords(*dataset);
  internal::AddHelloTasks(*dataset, parts);
  // Fixed IDs let the CLI examples and the tests name objects (kSpecialSignalId, ...).
  dataset->AssignIds();
  dataset->Validate();
  return dataset;
}

manifest::Card HelloWorldCard() {
  manifest::Card card;
  card.dataset_id = std::string(kHelloWorldId);
  card.dataset_version = std::string(kHelloWorldVersion);
  card.name = "TimeF hello world";
  card.description =
      "A small synthetic dataset that exercises every part of the TimeF format: ECG with special "
      "floats, irregular vitals with nulls, a diary without timeline, annotations of every shape "
      "and all eight task types.";
  card.license = manifest::License::kCcBy4_0;
  card.domains = {manifest::Domain::kCardiology, manifest::Domain::kHealth,
                  manifest::Domain::kGeneral};
  card.tags = {"demo", "synthetic", "ecg", "vitals"};
  card.citation = "The TimeF authors. TimeF hello world, version 1.0.0.";
  return card;
}

WriteOptions HelloWorldWriteOptions() {
  WriteOptions options;
  options.chunk_max_bytes = 16 * 1024;
  options.row_group_target_bytes = 64 * 1024;
  options.shard_target_bytes = 256 * 1024;
  return options;
}

}  // namespace timef::demo
