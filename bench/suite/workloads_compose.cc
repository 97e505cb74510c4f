// Composition on the ECG corpus (issue 12): an edit and a derive of the written corpus write no
// values bytes and take a small fraction of the parent's write; a full pass through the child
// reads the parent's files at the parent's speed.
#include <filesystem>
#include <vector>

#include "suite/child.h"
#include "suite/read_setup.h"
#include "suite/report.h"
#include "suite/stats.h"
#include "suite/workloads.h"
#include "timef/compose.h"

namespace timef::bench {
namespace {

namespace fs = std::filesystem;

// The written corpus release seen at <root>/<org>/<name>/<version>, as a registry holds it, so
// that the child's payload source resolves (the release itself stays where the suite wrote it).
fs::path RegistryOf(const SuiteOptions& options, CorpusKind kind, const manifest::Manifest& m) {
  const fs::path root = options.work_dir / std::string(ToString(kind)) / "compose-root";
  const fs::path at = root / m.dataset_id / m.metadata.dataset_version;
  if (!fs::exists(at)) {
    fs::create_directories(at.parent_path());
    fs::create_directory_symlink(fs::absolute(PathsFor(options, kind).release), at);
  }
  return root;
}

Json Written(const WriteResult& w, double seconds) {
  return Json{{"seconds", seconds}, {"files", FileKinds(w.manifest, w.release_dir)}};
}

// One full pass over every record's values in read order: {MB/s, sum, values}.
struct Pass {
  double mb_per_s = 0;
  double sum = 0;
  std::int64_t values = 0;
};
Pass FullPass(Reader& reader) {
  Stopwatch clock;
  Pass pass;
  RecordStream stream = reader.IterRecords();
  while (auto batch = stream.Next()) {
    for (const auto& record : *batch) {
      for (const auto& signal : record->Signals()) {
        const auto values = signal->LoadValues();
        pass.sum += SumOf(values->values<float>());
        pass.values += values->size();
      }
    }
  }
  pass.mb_per_s = static_cast<double>(pass.values) * 4 / 1e6 / clock.Seconds();
  return pass;
}

}  // namespace

std::vector<Json> ComposeWorkloads(const SuiteOptions& options, CorpusKind kind,
                                   const Json& parent_write_seconds) {
  const std::string corpus = std::string(ToString(kind));
  const fs::path release = PathsFor(options, kind).release;
  const manifest::Manifest parent_m = manifest::ReadManifest(release / "manifest.json");
  const fs::path root = RegistryOf(options, kind, parent_m);
  const fs::path parent_dir = root / parent_m.dataset_id / parent_m.metadata.dataset_version;

  // Each timed write runs in its own child (fresh caches, its own peak RSS), into a fresh
  // directory; the last edit and derive stay for the read pass.
  Json edit = {{"timef", Json::array()}, {"parent_write", parent_write_seconds}};
  Json derive = edit;
  Json edit_written, derive_written;
  const std::string child_id = parent_m.dataset_id + "-child";
  for (int rep = 0; rep < options.write_repeats; ++rep) {
    fs::remove_all(root / parent_m.dataset_id / "1.1.0");
    const Json e = RunInChild([&] {
                     Reader base = Reader::Open(parent_dir);
                     Stopwatch clock;
                     Editor editor(base, "1.1.0");
                     const std::vector<std::int64_t> ids = base.RecordIds();
                     editor.RemoveRecords(std::vector<std::int64_t>{ids.front()});
                     const WriteResult w = editor.Write(root, options.write_options);
                     return Written(w, clock.Seconds());
                   }).output;
    edit["timef"].push_back(e["seconds"]);
    edit_written = e["files"];

    fs::remove_all(root / child_id);
    const Json d = RunInChild([&] {
                     Reader parent = Reader::Open(parent_dir);
                     Stopwatch clock;
                     model::Dataset child(child_id, "1.0.0");
                     Composer composer(child);
                     composer.AddParent("ecg", parent);
                     composer.ImportRecords("ecg", parent.RecordIds());
                     composer.ImportTasksOfImportedRecords("ecg");
                     manifest::Card card = parent.manifest().metadata;
                     card.dataset_id = child_id;
                     card.dataset_version = "1.0.0";
                     card.parents.clear();
                     const WriteResult w = composer.Write(card, root, options.write_options);
                     return Written(w, clock.Seconds());
                   }).output;
    derive["timef"].push_back(d["seconds"]);
    derive_written = d["files"];
  }
  edit["extra"] = {{"written", edit_written},
                   {"what", "Editor: remove the first record, write 1.1.0 by reference"}};
  derive["extra"] = {{"written", derive_written},
                     {"what", "Composer: import every record (and its tasks) into a child"}};

  // The same full pass through the child and through the parent, interleaved; bit-exact sums.
  const Json scan = RunInChild([&] {
                      Reader child = Reader::Open(root / child_id / "1.0.0");
                      Reader parent = Reader::Open(parent_dir);
                      child.RecordIds();
                      parent.RecordIds();
                      Json out = {{"timef", Json::array()}, {"via_parent", Json::array()}};
                      Pass c, p;
                      for (int rep = 0; rep < options.repeats; ++rep) {
                        c = FullPass(child);
                        p = FullPass(parent);
                        out["timef"].push_back(c.mb_per_s);
                        out["via_parent"].push_back(p.mb_per_s);
                      }
                      if (c.values != p.values || c.sum != p.sum) {
                        throw std::runtime_error("the child's pass differs from the parent's: " +
                                                 std::to_string(c.values) + " vs " +
                                                 std::to_string(p.values) + " values");
                      }
                      out["extra"] = {{"values", c.values}, {"sum", c.sum}};
                      return out;
                    }).output;
  return {MakeRow(corpus, "edit", "s", false, edit), MakeRow(corpus, "derive", "s", false, derive),
          MakeRow(corpus, "scan_via_child", "MB/s", true, scan)};
}

}  // namespace timef::bench
