// Reader: each request takes a catalog lease (reopening after Close() or a fork), builds its
// objects with one CatalogHydrator and the ValueResolver of its LoadPlan, and returns one graph.
#include "timef/reader.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "catalog/hydrate/hydrate.h"
#include "catalog/hydrate/lookup.h"
#include "reader/lazy_handles.h"
#include "reader/read_resolver.h"
#include "reader/reader_state.h"
#include "timef/error.h"

namespace timef {
namespace {

// GetSignals' resolver: the plan's values for the requested signals, lazy ones for their
// siblings; offsets and text stay lazy (the caller loads the requested signals' offsets).
class WantedSignalsResolver final : public catalog::ValueResolver {
 public:
  WantedSignalsResolver(std::shared_ptr<const catalog::ValueResolver> lazy,
                        std::shared_ptr<const catalog::ValueResolver> planned,
                        std::unordered_set<std::int64_t> wanted)
      : lazy_(std::move(lazy)), planned_(std::move(planned)), wanted_(std::move(wanted)) {}

  std::shared_ptr<const model::SignalValues> Values(
      const model::Signal& signal, std::vector<ChunkLocator> chunks) const override {
    const bool requested = signal.id() && wanted_.contains(*signal.id());
    return (requested ? planned_ : lazy_)->Values(signal, std::move(chunks));
  }
  std::shared_ptr<const model::TimeOffsets> Offsets(const OffsetsLocator& locator, int64_t first_us,
                                                    int64_t last_us) const override {
    return lazy_->Offsets(locator, first_us, last_us);
  }
  model::Text Text(const TextLocator& locator, int64_t text_key) const override {
    return lazy_->Text(locator, text_key);
  }
  model::TextList TextList(const TextLocator& locator, int64_t text_key) const override {
    return lazy_->TextList(locator, text_key);
  }
  void FinishValues() const override {
    lazy_->FinishValues();
    planned_->FinishValues();
  }

 private:
  std::shared_ptr<const catalog::ValueResolver> lazy_;
  std::shared_ptr<const catalog::ValueResolver> planned_;
  std::unordered_set<std::int64_t> wanted_;
};

void CheckBatchSize(std::int64_t batch_size, std::string_view what) {
  if (batch_size < 1) {
    throw ValidationError({.object = std::string(what), .where = "batch_size"},
                          "must be ≥ 1, got " + std::to_string(batch_size));
  }
}

void CheckIds(std::span<const std::int64_t> ids, std::string_view kind) {
  for (std::int64_t id : ids) {
    if (id <= 0) {
      throw ValidationError({.object = std::string(kind), .where = "id"},
                            "IDs are positive int64, got " + std::to_string(id));
    }
  }
}

// Distinct IDs in first-seen order.
std::vector<std::int64_t> Distinct(std::span<const std::int64_t> ids) {
  std::vector<std::int64_t> out;
  std::unordered_set<std::int64_t> seen;
  for (std::int64_t id : ids) {
    if (seen.insert(id).second) out.push_back(id);
  }
  return out;
}

}  // namespace

catalog::TaskFilter FilterOf(const TaskQuery& query) {
  catalog::TaskFilter filter;
  if (query.inputs) {
    CheckIds(*query.inputs, "record");
    filter.inputs = *query.inputs;
  }
  if (query.input_records) {
    if (query.inputs) {
      throw ValidationError({.object = "TaskQuery", .where = "input_records"},
                            "give inputs or input_records, not both");
    }
    filter.inputs.emplace();
    for (const auto& record : *query.input_records) {
      if (!record || !record->id()) {
        throw ValidationError({.object = "TaskQuery", .where = "input_records"},
                              "every input record needs an ID (read it from the release)");
      }
      filter.inputs->push_back(*record->id());
    }
    filter.adopt = *query.input_records;
  }
  filter.split = query.split;
  filter.type = query.type;
  filter.required_modalities = query.required_modalities;
  filter.supported_modalities = query.supported_modalities;
  return filter;
}

Reader::Reader(std::shared_ptr<ReaderState> state) : state_(std::move(state)) {}
Reader::Reader(Reader&&) noexcept = default;

Reader& Reader::operator=(Reader&& other) noexcept {
  if (this != &other) {
    if (state_) state_->Close();
    state_ = std::move(other.state_);
  }
  return *this;
}

// Lazy handles may keep the state alive; the files and the catalog connection close now.
Reader::~Reader() {
  if (state_) state_->Close();
}

const manifest::Manifest& Reader::manifest() const { return state_->manifest(); }
const std::filesystem::path& Reader::path() const {
  const auto& legacy = state_->locators().legacy_origin();
  return legacy ? legacy->dir : state_->locators().release_dir();
}
ReaderCounters Reader::counters() const { return state_->counters(); }
void Reader::Close() { state_->Close(); }

std::unique_ptr<model::Dataset> Reader::Read(const LoadPlan& load) {
  catalog::CatalogLease lease = state_->catalog().Lease();
  return state_->catalog().Hydrator(lease.connection(), load).ReadDataset();
}

std::vector<std::int64_t> Reader::RecordIds() {
  catalog::CatalogLease lease = state_->catalog().Lease();
  return catalog::RecordIdsInReadOrder(lease.connection());
}

std::vector<std::int64_t> Reader::SignalIds(SignalOrder order) {
  return state_->signals().SignalIds(order);
}

namespace {

// The hydrator of one IterRecords batch, made with its catalog lease only when the batch needs one
// (a stream that knows it is at its end touches no catalog).
class BatchHydrator {
 public:
  using Make = std::function<catalog::CatalogHydrator(catalog::Connection)>;
  BatchHydrator(ReaderState& state, const Make& make) : state_(state), make_(make) {}
  catalog::CatalogHydrator& operator()() {
    if (!hydrator_) {
      lease_.emplace(state_.catalog().Lease());
      hydrator_.emplace(make_(lease_->connection()));
    }
    return *hydrator_;
  }

 private:
  ReaderState& state_;
  const Make& make_;
  std::optional<catalog::CatalogLease> lease_;
  std::optional<catalog::CatalogHydrator> hydrator_;  // after the lease: destroyed before it
};

// Builds an IterRecords stream's next batch, or nullopt at its end.
using BuildBatch = std::function<std::optional<RecordStream::Batch>(BatchHydrator& hydrator)>;

RecordStream BatchByBatch(std::shared_ptr<ReaderState> state, const LoadPlan& plan,
                          BuildBatch build) {
  BatchHydrator::Make make = [state, plan](catalog::Connection connection) {
    return state->catalog().Hydrator(std::move(connection), plan);
  };
  return RecordStream([state, make = std::move(make), build = std::move(build)]() {
    BatchHydrator hydrator(*state, make);
    return build(hydrator);
  });
}

// IterRecords with an eager values plan and several decode threads: the lanes decode the values of
// batch i + 1 while the caller works on batch i (docs/architecture.md "Decode lanes"), so the
// stream holds two batches. A failure to build the next batch is thrown by the call after the one
// that returns the current batch.
RecordStream RunningAhead(std::shared_ptr<ReaderState> state, const LoadPlan& plan,
                          BuildBatch build) {
  struct Ahead {
    RecordStream::Batch records;
    std::vector<std::shared_ptr<SignalBatch>> decoding;
  };
  std::shared_ptr<const ReadResolver> resolver = ReadResolver::RunningAhead(state, plan);
  BatchHydrator::Make make = [state, resolver](catalog::Connection connection) {
    return state->catalog().Hydrator(std::move(connection), resolver);
  };
  auto next_batch = [state, resolver, make = std::move(make),
                     build = std::move(build)]() -> std::optional<Ahead> {
    BatchHydrator hydrator(*state, make);
    std::optional<RecordStream::Batch> records = build(hydrator);
    std::vector<std::shared_ptr<SignalBatch>> decoding = resolver->TakeStarted();
    if (!records) return std::nullopt;
    return Ahead{std::move(*records), std::move(decoding)};
  };
  return RecordStream(
      [next_batch, primed = false, ahead = std::optional<Ahead>(),
       failure = std::exception_ptr()]() mutable -> std::optional<RecordStream::Batch> {
        if (failure) std::rethrow_exception(failure);
        if (!primed) {
          ahead = next_batch();
          primed = true;
        }
        if (!ahead) return std::nullopt;
        Ahead current = std::move(*ahead);
        try {
          ahead = next_batch();
        } catch (...) {
          ahead.reset();
          failure = std::current_exception();
        }
        for (const auto& batch : current.decoding) batch->Fill();
        return std::move(current.records);
      });
}

}  // namespace

RecordStream Reader::IterRecords(const RecordQuery& query) {
  CheckBatchSize(query.batch_size, "IterRecords");
  std::shared_ptr<ReaderState> state = state_;
  const bool run_ahead = query.load.signal_values == Loading::kEager && state->decode_threads() > 1;
  const auto stream = run_ahead ? RunningAhead : BatchByBatch;
  if (query.ids) {
    if (query.ids->empty()) return RecordStream(nullptr);
    CheckIds(*query.ids, "record");
    {
      catalog::CatalogLease lease = state->catalog().Lease();
      catalog::CheckRecordIds(lease.connection(), *query.ids);
    }
    auto ids = std::make_shared<const std::vector<std::int64_t>>(*query.ids);
    return stream(state, query.load,
                  [ids, batch_size = query.batch_size, next = std::size_t{0}](
                      BatchHydrator& hydrator) mutable -> std::optional<RecordStream::Batch> {
                    if (next >= ids->size()) return std::nullopt;
                    const std::size_t count = std::min<std::size_t>(
                        ids->size() - next, static_cast<std::size_t>(batch_size));
                    std::span<const std::int64_t> slice(ids->data() + next, count);
                    next += count;
                    return hydrator().RecordsById(slice);
                  });
  }
  return stream(state, query.load,
                [batch_size = query.batch_size, next = std::int64_t{0},
                 total = std::optional<std::int64_t>()](
                    BatchHydrator& hydrator) mutable -> std::optional<RecordStream::Batch> {
                  if (!total) total = hydrator().RecordCount();
                  if (next >= *total) return std::nullopt;
                  // Reserve for what is read, not what is asked: a batch_size of 10^8 over four
                  // records builds four.
                  const std::int64_t count = std::min(batch_size, *total - next);
                  RecordStream::Batch batch = hydrator().RecordsInReadOrder(next, count);
                  next += count;
                  return batch;
                });
}

std::vector<std::shared_ptr<model::Task>> Reader::ReadTasks(const TaskQuery& query) {
  const catalog::TaskFilter filter = FilterOf(query);
  catalog::CatalogLease lease = state_->catalog().Lease();
  return state_->catalog()
      .Hydrator(lease.connection(), query.load)
      .Tasks(filter, 0, std::numeric_limits<std::int64_t>::max());
}

TaskStream Reader::IterTasks(const TaskQuery& query) {
  CheckBatchSize(query.batch_size, "IterTasks");
  std::shared_ptr<ReaderState> state = state_;
  // The stream holds the caller's input records (shared by every batch), the records earlier
  // batches built (lazy plans only) and no DuckDB handle: each batch runs under its own lease.
  std::shared_ptr<catalog::TaskBatches> batches =
      state->catalog().TaskBatches(FilterOf(query), query.load, query.batch_size);
  return TaskStream([state, batches]() -> std::optional<TaskStream::Batch> {
    if (batches->done()) return std::nullopt;
    if (batches->built()) return batches->Next();  // no catalog access
    catalog::CatalogLease lease = state->catalog().Lease();
    TaskStream::Batch batch = batches->Next(lease.connection());
    if (batch.empty()) return std::nullopt;
    return batch;
  });
}

std::vector<std::shared_ptr<model::Record>> Reader::GetRecords(std::span<const std::int64_t> ids,
                                                               const LoadPlan& load) {
  CheckIds(ids, "record");
  if (ids.empty()) return {};
  const std::vector<std::int64_t> distinct = Distinct(ids);
  catalog::CatalogLease lease = state_->catalog().Lease();
  const auto records = state_->catalog().Hydrator(lease.connection(), load).RecordsById(distinct);
  std::unordered_map<std::int64_t, std::shared_ptr<model::Record>> by_id;
  for (std::size_t i = 0; i < distinct.size(); ++i) by_id[distinct[i]] = records[i];
  std::vector<std::shared_ptr<model::Record>> out;
  out.reserve(ids.size());
  for (std::int64_t id : ids) out.push_back(by_id.at(id));
  return out;
}

std::shared_ptr<model::Record> Reader::GetRecord(std::int64_t id, const LoadPlan& load) {
  return GetRecords(std::span<const std::int64_t>(&id, 1), load).front();
}

std::vector<std::shared_ptr<model::Signal>> Reader::GetSignals(std::span<const std::int64_t> ids,
                                                               const LoadPlan& load) {
  CheckIds(ids, "signal");
  if (ids.empty()) return {};
  // The locator index knows each signal's record (and says which IDs are unknown) without SQL
  // once it holds them.
  const std::vector<std::int64_t> record_ids = state_->signals().RecordIds(ids);
  // The records are built lazily; the plan then loads the requested signals, not their siblings.
  const std::unordered_set<std::int64_t> wanted(ids.begin(), ids.end());
  std::shared_ptr<const catalog::ValueResolver> resolver =
      state_->catalog().Resolver(LoadPlan::AllLazy());
  if (load.signal_values == Loading::kEager) {
    resolver = std::make_shared<const WantedSignalsResolver>(
        resolver, state_->catalog().Resolver(load), std::unordered_set<std::int64_t>(wanted));
  }
  const std::vector<std::int64_t> distinct = Distinct(record_ids);
  std::vector<std::shared_ptr<model::Record>> records;
  {
    catalog::CatalogLease lease = state_->catalog().Lease();
    catalog::CatalogHydrator hydrator(lease.connection(), resolver);
    hydrator.UseRowCache(state_->catalog().row_cache());
    records = hydrator.RecordsById(distinct);
  }
  // Each signal shares ownership with its record, so that its source (and the record) stay
  // reachable while the caller holds only the signal.
  std::unordered_map<std::int64_t, std::shared_ptr<model::Signal>> by_id;
  for (const auto& record : records) {
    for (const auto& signal : record->Signals()) {
      if (!wanted.contains(*signal->id())) continue;
      if (load.time_offsets == Loading::kEager && signal->axis()->is_irregular()) {
        signal->axis()->LoadOffsets();
      }
      by_id.emplace(*signal->id(), std::shared_ptr<model::Signal>(record, signal.get()));
    }
  }
  std::vector<std::shared_ptr<model::Signal>> out;
  out.reserve(ids.size());
  for (std::int64_t id : ids) out.push_back(by_id.at(id));
  return out;
}

std::shared_ptr<model::Signal> Reader::GetSignal(std::int64_t id, const LoadPlan& load) {
  return GetSignals(std::span<const std::int64_t>(&id, 1), load).front();
}

std::vector<std::shared_ptr<model::Task>> Reader::GetTasks(std::span<const std::int64_t> ids,
                                                           std::optional<model::TaskType> type,
                                                           const LoadPlan& load) {
  CheckIds(ids, "task");
  if (ids.empty()) return {};
  const std::vector<std::int64_t> distinct = Distinct(ids);
  catalog::CatalogLease lease = state_->catalog().Lease();
  catalog::CheckTaskIds(lease.connection(), distinct, type);
  catalog::TaskFilter filter;
  filter.ids = distinct;
  const auto tasks = state_->catalog()
                         .Hydrator(lease.connection(), load)
                         .Tasks(filter, 0, std::numeric_limits<std::int64_t>::max());
  std::unordered_map<std::int64_t, std::shared_ptr<model::Task>> by_id;
  for (const auto& task : tasks) by_id.emplace(*task->id(), task);
  std::vector<std::shared_ptr<model::Task>> out;
  out.reserve(ids.size());
  for (std::int64_t id : ids) out.push_back(by_id.at(id));
  return out;
}

std::shared_ptr<model::Task> Reader::GetTask(std::int64_t id, std::optional<model::TaskType> type,
                                             const LoadPlan& load) {
  return GetTasks(std::span<const std::int64_t>(&id, 1), type, load).front();
}

std::int64_t Reader::LocalIdOf(const ParentRef& parent, std::string_view import_kind,
                               std::string_view kind, std::int64_t parent_id) {
  const std::vector<manifest::ParentRelease>& parents = state_->manifest().metadata.parents;
  std::string alias;
  if (const auto* named = std::get_if<ParentAlias>(&parent)) {
    alias = named->alias;
    const bool known = std::any_of(parents.begin(), parents.end(),
                                   [&](const auto& p) { return p.alias == alias; });
    if (!known) {
      throw NotFoundError({.object = "dataset_parents", .where = "alias"},
                          "no parent with alias '" + alias + "' in " + state_->manifest().Ref());
    }
  } else {
    const std::string ref = std::get<ReleaseRef>(parent).ToString();
    std::vector<std::string> aliases;
    for (const auto& p : parents) {
      if (p.Ref() == ref) aliases.push_back(p.alias);
    }
    if (aliases.empty()) {
      throw NotFoundError({.object = "dataset_parents", .where = "version"},
                          "no parent release " + ref + " in " + state_->manifest().Ref());
    }
    if (aliases.size() > 1) {
      throw ValidationError({.object = "dataset_parents", .where = "alias"},
                            ref + " is a parent under " + std::to_string(aliases.size()) +
                                " aliases ('" + aliases[0] + "', '" + aliases[1] +
                                "'); name the parent by its alias");
    }
    alias = aliases.front();
  }
  CheckIds(std::span<const std::int64_t>(&parent_id, 1), kind);
  std::optional<std::int64_t> local;
  {
    catalog::CatalogLease lease = state_->catalog().Lease();
    local = catalog::LocalIdOfImport(lease.connection(), import_kind, alias, parent_id);
  }
  if (!local) {
    throw NotFoundError({.object = "import_refs", .where = "parent_id"},
                        "no " + std::string(kind) + " imported from '" + alias + "' with ID " +
                            std::to_string(parent_id));
  }
  return *local;
}

std::shared_ptr<model::Record> Reader::GetRecord(const ParentRef& parent, std::int64_t parent_id,
                                                 const LoadPlan& load) {
  return GetRecord(LocalIdOf(parent, "Record", "record", parent_id), load);
}

std::shared_ptr<model::Signal> Reader::GetSignal(const ParentRef& parent, std::int64_t parent_id,
                                                 const LoadPlan& load) {
  return GetSignal(LocalIdOf(parent, "Signal", "signal", parent_id), load);
}

std::shared_ptr<model::Task> Reader::GetTask(const ParentRef& parent, std::int64_t parent_id,
                                             std::optional<model::TaskType> type,
                                             const LoadPlan& load) {
  return GetTask(LocalIdOf(parent, "Task", "task", parent_id), type, load);
}

}  // namespace timef
