// The composed demo releases: timef/hello-child@1.0.0 imports part of hello-world, and
// timef/hello-world@1.1.0 edits it. Both reuse hello-world's stored values by reference.
#include <cmath>

#include "timef/compose.h"
#include "timef/demo.h"

namespace timef::demo {
namespace {

namespace fs = std::filesystem;

// A record of its own: 10 s of a 1 Hz float32 pulse wave at 50 Hz, anchored like hello-world.
std::shared_ptr<model::Record> PulseRecord(const std::string& label) {
  auto record = std::make_shared<model::Record>();
  record->set_start_time_us(1'700'000'000'000'000);
  record->set_metadata(Json{{"label", label}});
  auto spec = model::Spec::Make(
      {.spec_type = "pulse", .name = "Pulse wave", .unit = "1", .dtype = model::DType::kFloat32});
  std::vector<float> values(500);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<float>(std::sin(2.0 * M_PI * static_cast<double>(i) / 50.0));
  }
  record->AddSource("finger")->AddSignal(std::make_shared<model::Signal>(
      "pulse", spec, model::TimeAxis::RegularFromRate(50), model::ValueArray::Of(values)));
  return record;
}

fs::path HelloWorldDir(const fs::path& root) {
  return root / std::string(kHelloWorldId) / std::string(kHelloWorldVersion);
}

}  // namespace

WriteResult WriteHelloChild(const fs::path& root) {
  Reader parent = Reader::Open(HelloWorldDir(root));
  model::Dataset child{std::string(kHelloChildId), std::string(kHelloChildVersion)};
  Composer composer(child);
  composer.AddParent("hello", parent);
  const std::vector<int64_t> ids{kEcgRecordId, kVitalsRecordId};
  auto imported = composer.ImportRecords("hello", ids);
  composer.ImportTasksOfImportedRecords("hello");
  // An overlay: the child's own annotation on an imported record.
  imported.front()->Annotate(std::make_shared<model::AnnotationContent>(
      "child_review", model::AnnotationValue::OfText("checked by the child")));
  child.AddRecord(PulseRecord("child's own"));
  manifest::Card card = HelloWorldCard();
  card.dataset_id.clear();
  card.dataset_version.clear();
  card.name = "TimeF hello child";
  card.description =
      "Imports the ECG and vitals records of timef/hello-world@1.0.0 with their tasks, adds a "
      "record of its own and an overlay annotation; copies no values.";
  return composer.Write(card, root, HelloWorldWriteOptions());
}

WriteResult WriteHelloWorldEdit(const fs::path& root) {
  Reader base = Reader::Open(HelloWorldDir(root));
  Editor edit(base, std::string(kHelloWorldEditVersion));
  edit.RemoveRecords(std::vector<int64_t>{kDiaryRecordId});
  edit.dataset().AddRecord(PulseRecord("added in 1.1.0"));
  return edit.Write(root, HelloWorldWriteOptions());
}

}  // namespace timef::demo
