// Builds a child release on the example ECG dataset (written by write_ecg into the same registry):
// `examples/ecg-subset` 1.0.0 imports records 1 and 2 of `examples/ecg-12lead@1.0.0` with the
// tasks that use only them, adds one question of its own on an imported record and an overlay
// annotation, and copies no values: the child's readers read the leads from the parent's shards.
// Then it reads an imported lead back by the parent's signal ID.
//
//   derive REGISTRY_ROOT
#include <timef/compose.h>
#include <timef/reader.h>
#include <timef/registry.h>

#include <iostream>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: derive REGISTRY_ROOT\n";
    return 2;
  }
  using namespace timef;
  try {
    Registry registry = Registry::Open(argv[1]);
    Reader parent = registry.OpenRelease("examples/ecg-12lead@1.0.0");

    model::Dataset child("examples/ecg-subset", "1.0.0");
    Composer composer(child);
    composer.AddParent("ecg", parent);
    const std::vector<std::int64_t> parent_records{1, 2};
    auto records = composer.ImportRecords("ecg", parent_records);
    auto tasks = composer.ImportTasksOfImportedRecords("ecg");

    // The child's own objects: an overlay annotation on an imported record and a new task.
    auto reviewed = std::make_shared<model::AnnotationContent>(
        "reviewed_by", model::AnnotationValue::OfText("example curator"));
    records[0]->Annotate(reviewed);
    auto question = child.AddTask(model::TaskType::kAnswer);
    question->AddInput(records[0]);
    question->set_prompt(model::Text("Is lead I inverted?"));
    question->AddTarget(model::TaskTarget::OfText("no"));

    manifest::Card card;
    card.name = "Example ECG subset";
    card.description = "Two records of the example 12-lead ECG dataset, with one more question.";
    card.license = manifest::License::kCc0_1_0;
    card.domains = {manifest::Domain::kCardiology};
    WriteResult written = composer.Write(card, argv[1]);
    std::cout << written.release_dir.string() << "\n";

    Reader reader = registry.OpenRelease("examples/ecg-subset@1.0.0");
    std::cout << reader.manifest().Ref() << ": " << reader.RecordIds().size() << " records, "
              << tasks.size() << " imported tasks, " << reader.manifest().payload_sources.size()
              << " payload source\n";
    // The parent's signal 1 (lead I of record 1), found by the parent's ID.
    auto lead = reader.GetSignal(ParentAlias{"ecg"}, 1);
    auto values = lead->LoadValues();
    std::cout << "parent signal 1 is child signal " << *lead->id() << " '" << lead->name()
              << "': " << values->size() << " values, first " << values->values<float>()[0] << "\n";
    reader.Verify();
    std::cout << "verified, parent files included\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "derive: " << error.what() << "\n";
    return 1;
  }
}
