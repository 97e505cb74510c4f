// Values by signal ID through the reader's compact locator index (FORMAT.md §11): no record is
// built, and once the index holds a signal its reads run no SQL (counted, not timed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <set>

#include "release_fixture.h"
#include "support/serve_release.h"
#include "timef/error.h"
#include "timef/reader.h"
#include "timef/writer.h"

namespace timef {
namespace {
using testing::FixtureCard;
using testing::MakeFixture;
using testing::TempDir;

std::unique_ptr<testing::WrittenFixture> WriteTwoEcgRecords(WriteOptions options,
                                                            int ecg_records = 2) {
  return testing::WriteFixture(std::move(options), ecg_records);
}
std::unique_ptr<testing::WrittenFixture> WriteTwoEcgRecords() { return testing::WriteFixture(2); }

// The counters of a fresh reader after loading every value record by record (IterRecords).
ReaderCounters CountersOfARecordPass(const std::filesystem::path& release_dir) {
  Reader reader = testing::OpenForRead(release_dir);
  RecordStream stream = reader.IterRecords();
  while (auto batch = stream.Next()) {
    for (const auto& record : *batch) {
      for (const auto& signal : record->Signals()) {
        if (signal->has_values()) signal->LoadValues();
      }
    }
  }
  return reader.counters();
}

// Every signal of the written dataset with the ID of its record.
std::vector<std::pair<std::shared_ptr<model::Signal>, int64_t>> AllSignals(
    const testing::WrittenFixture& w) {
  std::vector<std::pair<std::shared_ptr<model::Signal>, int64_t>> out;
  for (const auto& record : w.fixture.dataset->records()) {
    for (auto& signal : record->Signals()) out.emplace_back(signal, *record->id());
  }
  return out;
}

TEST(SignalValuesTest, EverySignalReadsBackExactlyWithItsRecordAndSpec) {
  auto w = WriteTwoEcgRecords();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const auto signals = AllSignals(*w);
  ASSERT_GE(signals.size(), 8u);
  std::vector<int64_t> ids;
  for (const auto& [signal, record_id] : signals) ids.push_back(*signal->id());
  const std::vector<SignalValuesRef> refs = reader.GetSignalValues(ids);
  ASSERT_EQ(refs.size(), signals.size());
  for (size_t i = 0; i < refs.size(); ++i) {
    const auto& [signal, record_id] = signals[i];
    SCOPED_TRACE(signal->Describe());
    EXPECT_EQ(refs[i].id(), *signal->id());
    EXPECT_EQ(refs[i].record_id(), record_id);
    EXPECT_EQ(refs[i].n_values(), signal->n_values());
    EXPECT_EQ(refs[i].spec(), *signal->spec());
    ASSERT_TRUE(refs[i].has_values());
    // ValueArray equality compares floats bit by bit (NaN payloads, -0.0) and validity.
    EXPECT_EQ(*refs[i].LoadValues(), *signal->LoadValues());
  }
}

// The reader's decoded-dictionary cache (docs/architecture.md "Read caches"): a second pass over
// the same signals decodes no dictionary page, and a budget too small to keep any still reads
// every value exactly, decoding the dictionary again each time.
TEST(SignalValuesTest, DictionaryCacheServesRepeatReadsAndStaysExactWithoutRoom) {
  WriteOptions options;
  options.row_group_target_bytes = 16 * 1024;  // several row groups, each with its dictionary
  options.data_page_target_bytes = 1024;
  auto w = WriteTwoEcgRecords(options);
  const auto signals = AllSignals(*w);
  auto pass = [&](Reader& reader) {
    for (const auto& [signal, record_id] : signals) {
      ASSERT_EQ(*reader.GetSignalValues(*signal->id()).LoadValues(), *signal->LoadValues())
          << signal->Describe();
    }
  };
  Reader cached = testing::OpenForRead(w->result.release_dir);
  pass(cached);
  const ReaderCounters first = cached.counters();
  ASSERT_GT(first.dictionary_pages_decoded, 0u) << "the fixture has dictionary-encoded shards";
  pass(cached);
  const ReaderCounters second = cached.counters();
  EXPECT_EQ(second.dictionary_pages_decoded, first.dictionary_pages_decoded);
  EXPECT_GT(second.dictionary_cache_hits, first.dictionary_cache_hits);

  ReaderOptions tiny;
  tiny.dictionary_cache_bytes = 1;
  Reader uncached = testing::OpenForRead(w->result.release_dir, tiny);
  pass(uncached);
  pass(uncached);
  const ReaderCounters none = uncached.counters();
  EXPECT_EQ(none.dictionary_cache_hits, 0u);
  EXPECT_GT(none.dictionary_pages_decoded, first.dictionary_pages_decoded);
  EXPECT_EQ(none.data_pages_decoded, second.data_pages_decoded);

  // Close() drops the cache with the open shards: the next read decodes its dictionary again.
  cached.Close();
  const int64_t id = *signals.front().first->id();
  EXPECT_EQ(*cached.GetSignalValues(id).LoadValues(), *signals.front().first->LoadValues());
  EXPECT_GT(cached.counters().dictionary_pages_decoded, second.dictionary_pages_decoded);
}

// Parked pages (docs/architecture.md "Read caches"): with pages that hold several signals, a pass
// in record order decodes each page once and goes on with it for the signals after the first,
// even though the shard stores the leads of a record apart (lead by lead). Values stay exact.
TEST(SignalValuesTest, APassInRecordOrderDecodesEachPageOnce) {
  WriteOptions options;
  options.data_page_target_bytes = 64 * 1024;  // several signals per page
  auto w = WriteTwoEcgRecords(options, 6);
  Reader reader = testing::OpenForRead(w->result.release_dir);
  std::map<int64_t, std::shared_ptr<const model::ValueArray>> written;
  for (const auto& [signal, record_id] : AllSignals(*w)) {
    if (signal->has_values()) written[*signal->id()] = signal->LoadValues();
  }
  RecordStream stream = reader.IterRecords();
  std::size_t read = 0;
  while (auto batch = stream.Next()) {
    for (const auto& record : *batch) {
      for (const auto& signal : record->Signals()) {
        if (!signal->has_values()) continue;
        ASSERT_EQ(*signal->LoadValues(), *written.at(*signal->id())) << signal->Describe();
        ++read;
      }
    }
  }
  ASSERT_EQ(read, written.size());
  const ReaderCounters pass = reader.counters();
  EXPECT_EQ(pass.chunks_read, read);
  EXPECT_GT(pass.data_pages_resumed, 0u);
  EXPECT_EQ(pass.data_pages_decoded + pass.data_pages_resumed, pass.chunks_read);

  // In reverse ID order no read starts where another stopped: every read decodes its page.
  Reader reverse = testing::OpenForRead(w->result.release_dir);
  for (auto it = written.rbegin(); it != written.rend(); ++it) {
    ASSERT_EQ(*reverse.GetSignalValues(it->first).LoadValues(), *it->second);
  }
  EXPECT_EQ(reverse.counters().data_pages_resumed, 0u);
  EXPECT_EQ(reverse.counters().data_pages_decoded, read);
}

// Reader::SignalIds: every signal once, grouped by record in read order with a record's valueless
// signals last, and in storage order: a values-only pass over it (GetSignalValues + LoadValues in
// batches, no record built) decodes exactly the pages a pass in record order decodes.
TEST(SignalValuesTest, SignalIdsListEverySignalOnceInStorageOrder) {
  WriteOptions options;
  options.data_page_target_bytes = 64 * 1024;  // several signals per page
  auto w = WriteTwoEcgRecords(options, 6);
  std::map<int64_t, std::shared_ptr<model::Signal>> written;
  for (const auto& [signal, record_id] : AllSignals(*w)) written[*signal->id()] = signal;

  Reader reader = testing::OpenForRead(w->result.release_dir);
  const std::vector<int64_t> ids = reader.SignalIds();
  ASSERT_EQ(ids.size(), written.size());
  std::set<int64_t> seen;
  const std::vector<SignalValuesRef> refs = reader.GetSignalValues(ids);
  std::vector<int64_t> record_order;
  bool valueless_seen = false;
  for (const SignalValuesRef& ref : refs) {
    ASSERT_TRUE(written.contains(ref.id())) << ref.id();
    EXPECT_TRUE(seen.insert(ref.id()).second) << "signal " << ref.id() << " listed twice";
    if (record_order.empty() || record_order.back() != ref.record_id()) {
      record_order.push_back(ref.record_id());
      valueless_seen = false;
    }
    if (!ref.has_values()) valueless_seen = true;
    EXPECT_FALSE(valueless_seen && ref.has_values())
        << "signal " << ref.id() << " has values but follows a valueless one of its record";
  }
  EXPECT_EQ(record_order, reader.RecordIds()) << "one run per record, in read order";

  std::size_t with_values = 0;
  for (std::size_t at = 0; at < refs.size(); at += 5) {
    std::vector<SignalValuesRef> batch;
    for (std::size_t i = at; i < std::min(refs.size(), at + 5); ++i) {
      if (refs[i].has_values()) batch.push_back(refs[i]);
    }
    const auto arrays = reader.LoadValues(batch);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      ASSERT_EQ(*arrays[i], *written.at(batch[i].id())->LoadValues()) << batch[i].id();
      ++with_values;
    }
  }
  ASSERT_GT(with_values, 0u);
  const ReaderCounters values_only = reader.counters();

  EXPECT_EQ(values_only.chunks_read, with_values);
  EXPECT_EQ(values_only.data_pages_decoded,
            CountersOfARecordPass(w->result.release_dir).data_pages_decoded);
  EXPECT_GT(values_only.data_pages_resumed, 0u);
}

// SignalIds(kValues): the same signals, valueless ones last, in the order their values are
// stored; reading them one at a time in that order decodes each page once (no parked page needed
// for a second signal name), like the pass in record order.
TEST(SignalValuesTest, SignalIdsInValuesOrderReadEachPageOnceOneAtATime) {
  WriteOptions options;
  options.data_page_target_bytes = 64 * 1024;  // several signals per page
  auto w = WriteTwoEcgRecords(options, 6);
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const std::vector<int64_t> by_records = reader.SignalIds();
  const std::vector<int64_t> by_values = reader.SignalIds(SignalOrder::kValues);
  std::vector<int64_t> a = by_records, b = by_values;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  ASSERT_EQ(a, b);
  EXPECT_EQ(reader.SignalIds(SignalOrder::kRecords), by_records);

  Reader one_by_one = testing::OpenForRead(w->result.release_dir);
  bool valueless_seen = false;
  std::size_t with_values = 0;
  for (const SignalValuesRef& ref : one_by_one.GetSignalValues(by_values)) {
    if (!ref.has_values()) {
      valueless_seen = true;
      continue;
    }
    EXPECT_FALSE(valueless_seen) << "signal " << ref.id()
                                 << " has values but follows a valueless one";
    one_by_one.LoadValues(std::vector<SignalValuesRef>{ref});
    ++with_values;
  }
  ASSERT_GT(with_values, 0u);
  EXPECT_EQ(one_by_one.counters().chunks_read, with_values);
  EXPECT_EQ(one_by_one.counters().data_pages_decoded,
            CountersOfARecordPass(w->result.release_dir).data_pages_decoded);
  EXPECT_GT(one_by_one.counters().data_pages_resumed, 0u);
}

TEST(SignalValuesTest, AfterTheFirstLookupReadsRunNoSqlAndTouchOnlyTheirShard) {
  WriteOptions options;
  options.chunk_max_bytes = 4096;  // 1,024 float32 steps per chunk
  options.row_group_target_bytes = 16 * 1024;
  options.shard_target_bytes = 32 * 1024;
  options.data_page_target_bytes = 1024;
  auto w = WriteTwoEcgRecords(options);
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const int64_t lead = *w->fixture.lead2->id();
  const SignalValuesRef ref = reader.GetSignalValues(lead);
  ReaderCounters c = reader.counters();
  EXPECT_EQ(c.catalog_requests, 1u);
  EXPECT_EQ(c.values_files_opened, 0u);
  // The first request indexed the whole (small) release.
  EXPECT_EQ(c.signals_indexed, AllSignals(*w).size());

  const model::ValueArray window = ref.ReadSteps(2'050, 2'060);  // inside chunk 2
  c = reader.counters();
  EXPECT_EQ(c.values_files_opened, 1u);
  EXPECT_EQ(c.chunks_read, 1u);
  EXPECT_EQ(window, w->fixture.lead2->LoadValues()->SliceSteps(2'050, 2'060, 1));

  // Other signals, one by one and batched: still no SQL.
  for (const auto& [signal, record_id] : AllSignals(*w)) {
    EXPECT_EQ(*reader.GetSignalValues(*signal->id()).LoadValues(), *signal->LoadValues());
  }
  EXPECT_EQ(reader.counters().catalog_requests, 1u);
  // GetSignals builds records, so it runs SQL for them, but not for the signal → record lookup.
  reader.GetSignals(std::vector<int64_t>{lead, *w->fixture.hr_a->id()});
  EXPECT_EQ(reader.counters().catalog_requests, 2u);
  // The index survives Close(); reads reopen the shard.
  reader.Close();
  EXPECT_EQ(*reader.GetSignalValues(lead).LoadValues(), *w->fixture.lead2->LoadValues());
  EXPECT_EQ(reader.counters().catalog_requests, 2u);
}

TEST(SignalValuesTest, PartialIndexQueriesOnlyWhatItLacks) {
  auto w = WriteTwoEcgRecords();
  // A threshold below the release's chunk count: each request indexes the signals it names.
  Reader reader = testing::OpenForRead(w->result.release_dir, ReaderOptions{.index_all_chunks = 1});
  const int64_t a = *w->fixture.lead->id(), b = *w->fixture.rhythm->id();
  EXPECT_EQ(*reader.GetSignalValues(a).LoadValues(), *w->fixture.lead->LoadValues());
  EXPECT_EQ(reader.counters().signals_indexed, 1u);
  EXPECT_EQ(reader.counters().catalog_requests, 1u);
  reader.GetSignalValues(a);
  EXPECT_EQ(reader.counters().catalog_requests, 1u);
  const auto both = reader.GetSignalValues(std::vector<int64_t>{b, a, b});
  EXPECT_EQ(reader.counters().catalog_requests, 2u);
  EXPECT_EQ(reader.counters().signals_indexed, 2u);
  EXPECT_EQ(*both[0].LoadValues(), *w->fixture.rhythm->LoadValues());
  EXPECT_EQ(both[1].id(), a);
  // An unknown ID in partial mode costs a query and is named.
  try {
    reader.GetSignalValues(std::vector<int64_t>{a, 9'001, 9'002});
    FAIL();
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("9001, 9002"), std::string::npos) << e.what();
  }
}

TEST(SignalValuesTest, BadIdsAndWindowsAreRefusedLikeSignalReads) {
  auto w = WriteTwoEcgRecords();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  EXPECT_THROW(reader.GetSignalValues(0), ValidationError);
  try {
    reader.GetSignalValues(std::vector<int64_t>{*w->fixture.lead->id(), 777, 778});
    FAIL();
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("777, 778"), std::string::npos) << e.what();
  }
  EXPECT_THROW(reader.GetSignal(777), NotFoundError);
  const SignalValuesRef lead = reader.GetSignalValues(*w->fixture.lead->id());
  const model::ValueArray empty = lead.ReadSteps(5, 5);
  EXPECT_EQ(empty.size(), 0);
  EXPECT_EQ(empty.dtype(), model::DType::kFloat32);
  EXPECT_EQ(lead.ReadSteps(testing::kLeadSteps - 3, testing::kLeadSteps + 100).size(), 3);
  EXPECT_THROW(lead.ReadSteps(10, 5), ValidationError);
  EXPECT_THROW(lead.ReadSteps(-1, 5), ValidationError);
  const SignalValuesRef text = reader.GetSignalValues(*w->fixture.text->id());
  EXPECT_EQ(text.ReadSteps(2, 4).values<std::string>()[1], "x\ny");
}

// A buffer of `expected`'s storage type and size, every byte 0xA5 first so that a slot left
// unwritten shows, filled by `load`; returns what it holds as an array (validity kept only when a
// step is null, like a loaded array) for a bit-exact comparison with `expected`.
model::ValueArray FilledBy(
    const model::ValueArray& expected, std::int64_t steps,
    const std::function<void(model::ScalarSpan, std::span<std::uint8_t>)>& load) {
  return std::visit(
      [&](const auto& held) -> model::ValueArray {
        using T = typename std::decay_t<decltype(held)>::value_type;
        if constexpr (std::is_same_v<T, std::string>) {
          ADD_FAILURE() << "str has no fixed-width buffer";
          return {};
        } else {
          std::vector<T> out(held.size());
          std::memset(out.data(), 0xA5, out.size() * sizeof(T));
          std::vector<std::uint8_t> validity(static_cast<std::size_t>(steps), 0xA5);
          load(std::span<T>(out), validity);
          const bool any_null = std::find(validity.begin(), validity.end(), 0) != validity.end();
          for (std::uint8_t present : validity) EXPECT_TRUE(present == 0 || present == 1);
          return model::ValueArray(expected.dtype(), std::move(out),
                                   any_null ? validity : std::vector<std::uint8_t>{});
        }
      },
      expected.data());
}

// Every non-str signal of the fixture (float32 leads with special floats, nullable float64, enum
// codes, bool, int16): decoded into caller buffers, one by one and as a batch on two decode
// threads in reverse order, the values and validity equal LoadValues' bit for bit.
TEST(SignalValuesTest, LoadValuesIntoFillsCallerBuffersExactlyForEveryDtype) {
  auto w = WriteTwoEcgRecords();
  ReaderOptions options;
  options.decode_threads = 2;
  Reader reader = testing::OpenForRead(w->result.release_dir, options);
  std::vector<int64_t> ids;
  for (const auto& [signal, record_id] : AllSignals(*w)) {
    if (signal->has_values() && signal->spec()->dtype != model::DType::kStr) {
      ids.push_back(*signal->id());
    }
  }
  std::reverse(ids.begin(), ids.end());
  const std::vector<SignalValuesRef> refs = reader.GetSignalValues(ids);
  std::set<model::DType> dtypes;
  bool saw_nulls = false;
  std::vector<std::shared_ptr<const model::ValueArray>> expected;
  for (const SignalValuesRef& ref : refs) {
    SCOPED_TRACE("signal " + std::to_string(ref.id()));
    expected.push_back(ref.LoadValues());
    dtypes.insert(ref.spec().dtype);
    saw_nulls = saw_nulls || expected.back()->has_validity();
    EXPECT_EQ(FilledBy(*expected.back(), ref.n_values(),
                       [&](model::ScalarSpan out, std::span<std::uint8_t> validity) {
                         ref.LoadValuesInto(out, validity);
                       }),
              *expected.back());
    if (!expected.back()->has_validity()) {  // no validity buffer needed without nulls
      EXPECT_EQ(FilledBy(*expected.back(), ref.n_values(),
                         [&](model::ScalarSpan out, std::span<std::uint8_t> unused) {
                           ref.LoadValuesInto(out);
                           std::fill(unused.begin(), unused.end(), std::uint8_t{1});
                         }),
                *expected.back());
    }
  }
  EXPECT_EQ(dtypes, (std::set<model::DType>{model::DType::kFloat32, model::DType::kFloat64,
                                            model::DType::kEnum, model::DType::kBool,
                                            model::DType::kInt16}));
  EXPECT_TRUE(saw_nulls) << "the fixture's float64 signals have null steps";

  // The batch: every buffer at once; each filled as its ref alone.
  std::vector<model::ScalarSpan> outs;
  std::vector<std::span<std::uint8_t>> validity;
  std::vector<std::vector<std::byte>> storage;
  std::vector<std::vector<std::uint8_t>> validity_storage;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const auto size = static_cast<std::size_t>(expected[i]->size());
    const std::size_t width = std::visit(
        [](const auto& v) { return sizeof(typename std::decay_t<decltype(v)>::value_type); },
        expected[i]->data());
    storage.emplace_back(size * width, std::byte{0xA5});
    validity_storage.emplace_back(static_cast<std::size_t>(refs[i].n_values()), 0xA5);
  }
  for (std::size_t i = 0; i < refs.size(); ++i) {
    outs.push_back(std::visit(
        [&](const auto& v) -> model::ScalarSpan {
          using T = typename std::decay_t<decltype(v)>::value_type;
          if constexpr (std::is_same_v<T, std::string>) {
            return std::span<float>();
          } else {
            return std::span<T>(reinterpret_cast<T*>(storage[i].data()), v.size());
          }
        },
        expected[i]->data()));
    validity.push_back(validity_storage[i]);
  }
  reader.LoadValuesInto(refs, outs, validity);
  for (std::size_t i = 0; i < refs.size(); ++i) {
    SCOPED_TRACE("signal " + std::to_string(refs[i].id()));
    EXPECT_EQ(FilledBy(*expected[i], refs[i].n_values(),
                       [&](model::ScalarSpan out, std::span<std::uint8_t> v) {
                         std::visit(
                             [&](auto into) {
                               std::memcpy(into.data(), storage[i].data(), storage[i].size());
                             },
                             out);
                         std::copy(validity_storage[i].begin(), validity_storage[i].end(),
                                   v.begin());
                       }),
              *expected[i]);
  }
}

// Buffers are checked before anything is decoded, and each refusal names the signal.
TEST(SignalValuesTest, LoadValuesIntoRefusesBuffersThatDoNotFitNamingTheSignal) {
  auto w = WriteTwoEcgRecords();
  Reader reader = testing::OpenForRead(w->result.release_dir);
  const SignalValuesRef lead = reader.GetSignalValues(*w->fixture.lead->id());
  const SignalValuesRef hr = reader.GetSignalValues(*w->fixture.hr_a->id());
  const SignalValuesRef text = reader.GetSignalValues(*w->fixture.text->id());
  const std::string lead_name = "signal " + std::to_string(lead.id());
  auto refused = [&](const std::function<void()>& call, const std::string& name,
                     const std::string& words) {
    try {
      call();
      ADD_FAILURE() << "accepted; expected: " << words;
    } catch (const ValidationError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  std::vector<float> floats(static_cast<std::size_t>(lead.n_values()));
  std::vector<double> doubles(floats.size());
  std::vector<std::uint8_t> validity(floats.size());
  const std::uint64_t decoded = reader.counters().data_pages_decoded;
  refused([&] { lead.LoadValuesInto(std::span<double>(doubles)); }, lead_name,
          "not the storage of float32");
  refused([&] { lead.LoadValuesInto(std::span<float>(floats).first(floats.size() - 1)); },
          lead_name, "holds " + std::to_string(floats.size() - 1) + " values");
  refused(
      [&] {
        lead.LoadValuesInto(std::span<float>(floats), std::span<std::uint8_t>(validity).first(3));
      },
      lead_name, "validity buffer holds 3 bytes");
  refused([&] { text.LoadValuesInto(std::span<float>(floats)); },
          "signal " + std::to_string(text.id()), "str values have no fixed-width buffer");
  // The batch checks every buffer first: the lead's good buffer is not decoded either.
  const std::vector<SignalValuesRef> both{lead, text};
  const std::vector<model::ScalarSpan> outs{std::span<float>(floats), std::span<float>(floats)};
  refused([&] { reader.LoadValuesInto(both, outs); }, "signal " + std::to_string(text.id()),
          "str values");
  refused([&] { reader.LoadValuesInto(both, std::span(outs).first(1)); }, "values",
          "2 signals, 1 value buffers");
  EXPECT_EQ(reader.counters().data_pages_decoded, decoded) << "nothing decoded before the checks";

  // Null steps need a validity buffer, alone and in a batch; with one, they read as 0 marked 0.
  std::vector<double> hr_values(static_cast<std::size_t>(hr.n_values()));
  ASSERT_TRUE(hr.LoadValues()->has_validity());
  const std::string hr_name = "signal " + std::to_string(hr.id());
  refused([&] { hr.LoadValuesInto(std::span<double>(hr_values)); }, hr_name,
          "null and no validity buffer");
  const std::vector<SignalValuesRef> hr_only{hr};
  const std::vector<model::ScalarSpan> hr_outs{std::span<double>(hr_values)};
  refused([&] { reader.LoadValuesInto(hr_only, hr_outs); }, hr_name, "null and no validity");
  // A validity list whose span for the nullable signal is empty is no buffer for it either.
  const std::vector<SignalValuesRef> lead_and_hr{lead, hr};
  std::vector<std::uint8_t> lead_validity(floats.size());
  const std::vector<model::ScalarSpan> pair_outs{std::span<float>(floats),
                                                 std::span<double>(hr_values)};
  const std::vector<std::span<std::uint8_t>> only_lead{lead_validity, {}};
  refused([&] { reader.LoadValuesInto(lead_and_hr, pair_outs, only_lead); }, hr_name,
          "null and no validity");
}

}  // namespace
}  // namespace timef
