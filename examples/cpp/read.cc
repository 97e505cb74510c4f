// Reads a release: its card and counts, every record with its signals, a window of one signal,
// one task with its targets, and the task table.
//
//   read RELEASE_DIR     (e.g. the directory write_ecg prints, or the http(s):// URL of a release;
//                         docs/remote.md)
#include <timef/reader.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace {

void PrintTarget(const timef::model::TaskTarget& target) {
  using timef::model::TargetKind;
  switch (target.kind()) {
    case TargetKind::kText:
      // A long text may sit in a payload file; Read() fetches it.
      std::cout << "    text: " << target.text().Read() << "\n";
      break;
    case TargetKind::kInteger:
      std::cout << "    integer: " << target.integer() << "\n";
      break;
    default:
      std::cout << "    " << timef::model::ToString(target.kind()) << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: read RELEASE_DIR|URL\n";
    return 2;
  }
  using namespace timef;
  try {
    // Checks the manifest and each file's size; opens nothing else yet. Batch reads decode on two
    // threads.
    Reader reader = Reader::Open(argv[1], ReaderOptions{.decode_threads = 2});
    const manifest::Manifest& m = reader.manifest();
    std::cout << m.Ref() << ": " << m.counts.records << " records, " << m.counts.signals
              << " signals\n";

    // Records are built in batches behind the range-for (IterRecords().Next() gives whole
    // batches); signal values stay on disk until read.
    std::int64_t first_signal = 0;
    for (const auto& record : reader.IterRecords()) {
      std::cout << "record " << *record->id() << ":";
      for (const auto& signal : record->Signals()) {
        std::cout << " " << signal->name() << "(" << signal->n_values() << ")";
        if (first_signal == 0) first_signal = *signal->id();
      }
      std::cout << "\n";
    }

    // Steps [100, 105) of the first signal: only the pages holding them are decoded.
    auto signal = reader.GetSignal(first_signal);
    model::ValueArray window = signal->ReadSteps(100, 105);
    std::cout << "signal " << first_signal << " steps 100-104 (" << *signal->spec()->unit << "):";
    for (float value : window.values<float>()) std::cout << " " << value;
    std::cout << "\n";
    // Every value of the same signal, and the same through the locator index (no record built).
    std::shared_ptr<const model::ValueArray> all = signal->LoadValues();
    std::vector<SignalValuesRef> refs = reader.GetSignalValues({first_signal});
    std::cout << "signal " << first_signal << ": " << all->size() << " values, "
              << refs.front().LoadValues()->size() << " by ID\n";
    // A values-only epoch: every signal in storage order, 12 at a time, each batch decoded on
    // the reader's decode threads; no record is built.
    const std::vector<std::int64_t> signal_ids = reader.SignalIds();
    const std::span<const std::int64_t> all_ids(signal_ids);
    std::int64_t epoch_values = 0;
    for (std::size_t at = 0; at < all_ids.size(); at += 12) {
      const auto batch = all_ids.subspan(at, std::min<std::size_t>(12, all_ids.size() - at));
      for (const auto& values : reader.LoadValues(reader.GetSignalValues(batch))) {
        epoch_values += values->size();
      }
    }
    std::cout << signal_ids.size()
              << " signals loaded in batches of 12 on 2 threads: " << epoch_values << " values\n";
    // The same epoch decoded into one buffer kept across batches (a training loop's input
    // tensor): no array is made per signal. These leads are float32; each batch's leads go one
    // after another in `buffer`.
    std::vector<float> buffer;
    std::int64_t into_values = 0;
    for (std::size_t at = 0; at < all_ids.size(); at += 12) {
      const auto batch = all_ids.subspan(at, std::min<std::size_t>(12, all_ids.size() - at));
      const std::vector<SignalValuesRef> batch_refs = reader.GetSignalValues(batch);
      std::size_t needed = 0;
      for (const SignalValuesRef& ref : batch_refs) needed += ref.n_values();
      if (buffer.size() < needed) buffer.resize(needed);
      std::vector<model::ScalarSpan> outs;
      std::size_t offset = 0;
      for (const SignalValuesRef& ref : batch_refs) {
        outs.push_back(std::span(buffer).subspan(offset, ref.n_values()));
        offset += ref.n_values();
      }
      reader.LoadValuesInto(batch_refs, outs);
      into_values += static_cast<std::int64_t>(offset);
    }
    std::cout << "the same into one buffer of " << buffer.size() << " floats: " << into_values
              << " values\n";

    auto task = reader.GetTask(1);
    const std::string heading = "task 1: " + model::ToString(task->type());
    std::cout << heading << ", prompt \"" << task->prompt()->Read() << "\"\n";
    for (const model::TaskTarget& target : task->targets().value()) PrintTarget(target);

    // The same tasks as an Arrow table, without building task objects.
    ArrowTable table = reader.ReadTaskTable();
    std::cout << "task table: " << table.num_rows() << " rows; columns:";
    for (const std::string& column : table.ColumnNames()) std::cout << " " << column;
    std::cout << "\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "read: " << error.what() << "\n";
    return 1;
  }
}
