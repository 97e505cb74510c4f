#include "release_fixture.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>

#include "timef/reader.h"

namespace timef::testing {
using namespace timef::model;  // NOLINT(google-build-using-namespace)
namespace fs = std::filesystem;

namespace {

std::vector<float> Lead(int64_t n, int seed) {
  std::vector<float> out(n);
  for (int64_t i = 0; i < n; ++i) {
    // Integer-microvolt grid, as ECG recorders store it.
    out[i] =
        static_cast<float>(std::lround(800.0 * std::sin(0.01 * i + seed) + 30 * (i % 7))) / 1000.0f;
  }
  return out;
}

std::string Repeat(std::string_view piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

}  // namespace

Fixture MakeFixture(int ecg_records, const std::string& version) {
  Fixture f;
  f.dataset = std::make_shared<Dataset>("test/fixture", version);
  f.dataset->Annotate(
      std::make_shared<AnnotationContent>("curation", AnnotationValue::OfText("ok")));
  auto ecg = Spec::Make({.spec_type = "ecg", .name = "ECG lead", .unit = "mV"});
  auto hr = Spec::Make({.spec_type = "heart_rate",
                        .name = "Heart rate",
                        .unit = "bpm",
                        .dtype = model::DType::kFloat64,
                        .nullable = true});
  auto rhythm = Spec::Make({.spec_type = "rhythm",
                            .name = "Rhythm",
                            .dtype = model::DType::kEnum,
                            .categories = {"N", "AF", "VT"}});
  auto note = Spec::Make({.spec_type = "note",
                          .name = "Note",
                          .dtype = model::DType::kStr,
                          .modality = model::Modality::kText});
  auto flag = Spec::Make({.spec_type = "flag", .name = "Flag", .dtype = model::DType::kBool});
  auto count = Spec::Make({.spec_type = "count", .name = "Count", .dtype = model::DType::kInt16});
  auto axis_500 = TimeAxis::RegularFromRate(500);

  for (int r = 0; r < ecg_records; ++r) {
    auto record = f.dataset->AddRecord();
    record->set_start_time_us(1'700'000'000'000'000 + r);
    auto leads = record->AddSource("device")->AddChild("leads");
    std::vector<float> lead = Lead(kLeadSteps, r);
    if (r == 0) {
      lead[kNanStep] = std::bit_cast<float>(kNanBits);
      lead[kPosInfStep] = std::numeric_limits<float>::infinity();
      lead[kNegInfStep] = -std::numeric_limits<float>::infinity();
      lead[kNegZeroStep] = -0.0f;
    }
    auto s1 = std::make_shared<Signal>("lead_I", ecg, axis_500, ValueArray::Of(std::move(lead)));
    auto s2 =
        std::make_shared<Signal>("lead_II", ecg, axis_500, ValueArray::Of(Lead(kLeadSteps, r + 7)));
    leads->AddSignal(s1);
    leads->AddSignal(s2);
    if (r == 0) {
      f.ecg = record;
      f.lead = s1;
      f.lead2 = s2;
      auto rh = std::make_shared<Signal>("rhythm", rhythm, TimeAxis::Regular(1'000'000), 6);
      rh->SetValues(ValueArray::EnumLabels({"N", "N", "AF", "AF", "VT", "N"}));
      record->sources()[0]->AddSignal(rh);
      f.rhythm = rh;
      record->Annotate(std::make_shared<AnnotationContent>("beat", AnnotationValue::OfInteger(1)),
                       TimePoint{500'000});
      s1->Annotate(
          std::make_shared<AnnotationContent>(
              "comment", AnnotationValue::OfText("Ünïcode " + Repeat("long comment ", 30))),
          TimeInterval{0, 1'000'000});
    }
  }

  f.vitals = f.dataset->AddRecord();
  auto irregular = TimeAxis::Irregular({0, 900'000, 2'000'000, 3'100'000, 3'100'000});
  f.hr_a = std::make_shared<Signal>("hr_a", hr, irregular,
                                    ValueArray::Of<double>({60, 0, 62, -0.0, 64}, {1, 0, 1, 1, 1}));
  f.hr_b =
      std::make_shared<Signal>("hr_b", hr, irregular, ValueArray::Of<double>({70, 71, 72, 73, 74}));
  auto monitor = f.vitals->AddSource("monitor");
  monitor->AddSignal(f.hr_a);
  monitor->AddSignal(f.hr_b);
  f.counts = std::make_shared<Signal>("counts", count, TimeAxis::Regular(1'000), int64_t{3000});
  f.counts->SetLoader([] {
    std::vector<int16_t> v(3000);
    for (int i = 0; i < 3000; ++i) v[i] = static_cast<int16_t>(i * 37 - 30000);
    return ValueArray::Of(std::move(v));
  });
  monitor->AddSignal(f.counts);
  f.vitals->Annotate(std::make_shared<AnnotationContent>(
      "tags", AnnotationValue::OfTextList(TextList(std::vector<std::string>(40, "supine-rest")))));

  f.notes = f.dataset->AddRecord();
  auto log = f.notes->AddSource("log");
  f.text = std::make_shared<Signal>("notes", note, TimeAxis::Ordinal(),
                                    ValueArray::Of<std::string>({"start", "", "stop ✓", "x\ny"}));
  f.flags = std::make_shared<Signal>("flags", flag, TimeAxis::Ordinal(),
                                     ValueArray::Bools({true, false, true, true}));
  log->AddSignal(f.text);
  log->AddSignal(f.flags);

  f.long_prompt = "Look at the ECG — " + Repeat("what rhythm do you see? ", 20);
  f.long_rationale = "Because " + Repeat("the RR intervals are irregular; ", 12) + "∎";
  f.classify = f.dataset->AddTask(model::TaskType::kClassification);
  f.classify->AddInput(f.ecg);
  f.classify->set_prompt(Text("Which rhythm?"));
  f.classify->AddTarget(TaskTarget::OfText("AF"));
  f.classify->set_split(model::Split::kTrain);
  f.answer = f.dataset->AddTask(model::TaskType::kAnswer);
  f.answer->AddInput(f.ecg);
  f.answer->set_prompt(Text(f.long_prompt));
  f.answer->set_rationale(Text(f.long_rationale));
  f.answer->AddTarget(TaskTarget::OfText(Repeat("atrial fibrillation ", 15)));
  f.answer->AddFromTask(f.classify);
  f.answer->set_split(model::Split::kTest);
  f.forecast = f.dataset->AddTask(model::TaskType::kForecasting);
  f.forecast->AddInput(f.vitals);
  f.forecast->AddTarget(TaskTarget::OfSignal(f.hr_b));
  f.forecast->AddFromTask(f.answer);
  f.forecast->set_split(model::Split::kValidation);
  return f;
}

manifest::Card FixtureCard() {
  manifest::Card card;
  card.name = "Fixture";
  card.description = "writer and reader tests";
  card.license = manifest::License::kCcBy4_0;
  return card;
}

std::vector<std::string> ListFiles(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) out.push_back(fs::relative(entry.path(), dir).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void FlipByte(const fs::path& file, int64_t offset) {
  std::fstream io(file, std::ios::in | std::ios::out | std::ios::binary);
  const int64_t size = static_cast<int64_t>(fs::file_size(file));
  const int64_t at = offset < 0 ? size + offset : offset;
  io.seekg(at);
  char byte = 0;
  io.read(&byte, 1);
  byte = static_cast<char>(byte ^ 0x01);
  io.seekp(at);
  io.write(&byte, 1);
}

std::unique_ptr<WrittenFixture> WriteFixture(WriteOptions options, int ecg_records) {
  auto w = std::make_unique<WrittenFixture>();
  w->fixture = MakeFixture(ecg_records);
  options.compression_level = 3;
  w->result = WriteRelease(*w->fixture.dataset, FixtureCard(), w->root.path(), options);
  return w;
}

namespace {

// The release WriteFixture(ecg_records) copies: written on first use in the process, removed at
// its exit (a forked child leaves through _exit and never removes it).
struct WrittenTemplate {
  TempDir root;
  WriteResult result;
};

const WrittenTemplate& TemplateFor(const std::string& key, WriteOptions options, int ecg_records) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, int>, std::unique_ptr<WrittenTemplate>> templates;
  const std::lock_guard lock(mutex);
  std::unique_ptr<WrittenTemplate>& slot = templates[{key, ecg_records}];
  if (slot == nullptr) {
    auto written = std::make_unique<WrittenTemplate>();
    Fixture fixture = MakeFixture(ecg_records);
    options.compression_level = 3;
    written->result = WriteRelease(*fixture.dataset, FixtureCard(), written->root.path(), options);
    slot = std::move(written);
  }
  return *slot;
}

}  // namespace

std::unique_ptr<WrittenFixture> CopyOfWrittenFixture(const std::string& key, WriteOptions options,
                                                     int ecg_records) {
  const WrittenTemplate& written = TemplateFor(key, std::move(options), ecg_records);
  auto w = std::make_unique<WrittenFixture>();
  w->fixture = MakeFixture(ecg_records);
  // What the writer did to the dataset it wrote: IDs assigned (in the same order, so the same
  // IDs), then validated.
  w->fixture.dataset->AssignIds();
  (void)w->fixture.dataset->Validate();
  fs::copy(written.root.path(), w->root.path(), fs::copy_options::recursive);
  w->result = written.result;
  w->result.release_dir =
      w->root.path() / fs::relative(written.result.release_dir, written.root.path());
  return w;
}

std::unique_ptr<WrittenFixture> WriteFixture(int ecg_records) {
  return CopyOfWrittenFixture("default options", {}, ecg_records);
}

void WriteReuseChild(const fs::path& root, const WriteOptions& options) {
  Reader parent = Reader::Open(root / kReuseParent);
  std::unique_ptr<model::Dataset> read = parent.Read();
  model::Dataset child("test/reuse", "1.0.0");
  for (const auto& record : read->records()) child.AddRecord(record);
  for (const auto& task : read->tasks()) child.AddTask(task);
  for (const auto& a : read->registered_annotations()) child.RegisterAnnotation(a);
  WriteRelease(child, FixtureCard(), root, options);
}

fs::path FirstPinnedShard(const fs::path& root) {
  const manifest::Manifest child = manifest::ReadManifest(root / kReuseChild / "manifest.json");
  for (const auto& pin : child.payload_sources.at("test/fixture@1.0.0")) {
    if (pin.path.starts_with("time_series/")) return root / kReuseParent / pin.path;
  }
  throw std::logic_error("no pinned shard in " + (root / kReuseChild).string());
}

}  // namespace timef::testing
