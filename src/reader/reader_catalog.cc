#include "reader/reader_catalog.h"

#include <algorithm>

namespace timef {
namespace fs = std::filesystem;

namespace {

// Tasks an all-lazy IterTasks builds per round (docs/format.md "IterTasks batches").
constexpr std::int64_t kTaskRound = 50000;

bool AllLazy(const LoadPlan& plan) {
  return plan.signal_values == Loading::kLazy && plan.time_offsets == Loading::kLazy &&
         plan.text == Loading::kLazy;
}

}  // namespace

ReaderCatalog::ReaderCatalog(fs::path control_file, catalog::CatalogIdentity identity,
                             std::int64_t cache_bytes, MakeResolver make_resolver)
    : control_file_(std::move(control_file)),
      identity_(std::move(identity)),
      row_cache_(
          std::make_shared<catalog::CatalogRowCache>(std::max<std::int64_t>(0, cache_bytes))),
      make_resolver_(std::move(make_resolver)) {}

void ReaderCatalog::set_catalog_file(std::function<fs::path()> catalog_file) {
  std::lock_guard lock(mutex_);
  catalog_file_ = std::move(catalog_file);
}

bool ReaderCatalog::remote() const {
  std::lock_guard lock(mutex_);
  return static_cast<bool>(catalog_file_);
}

catalog::CatalogLease ReaderCatalog::Lease() {
  std::lock_guard lock(mutex_);
  if (catalog_file_ && (!catalog_ || !catalog_->is_open())) {
    // A remote release: the verified local copy, fetched again if it was removed.
    fs::path file = catalog_file_();
    if (!catalog_) catalog_ = std::make_unique<catalog::CatalogReader>(std::move(file), identity_);
  }
  if (!catalog_) catalog_ = std::make_unique<catalog::CatalogReader>(control_file_, identity_);
  if (!catalog_->is_open()) ++opens_;
  ++requests_;
  return catalog_->Lease();
}

std::shared_ptr<const catalog::ValueResolver> ReaderCatalog::Resolver(const LoadPlan& plan) const {
  return make_resolver_(plan);
}

ReaderCatalog::ResolverPair ReaderCatalog::Resolvers(const LoadPlan& plan) const {
  std::shared_ptr<const catalog::ValueResolver> requested = Resolver(plan);
  // docs/format.md §11.5: a plan does not reach what a read builds only as from_tasks parents. An
  // all lazy plan needs no second resolver, which lets task batches reuse their records.
  std::shared_ptr<const catalog::ValueResolver> parents_only =
      AllLazy(plan) ? requested : Resolver(LoadPlan::AllLazy());
  return {std::move(requested), std::move(parents_only)};
}

catalog::CatalogHydrator ReaderCatalog::Hydrator(catalog::Connection connection,
                                                 const LoadPlan& plan) const {
  auto [requested, parents_only] = Resolvers(plan);
  catalog::CatalogHydrator hydrator(std::move(connection), std::move(requested),
                                    std::move(parents_only));
  hydrator.UseRowCache(row_cache_);
  return hydrator;
}

catalog::CatalogHydrator ReaderCatalog::Hydrator(
    catalog::Connection connection, std::shared_ptr<const catalog::ValueResolver> requested) const {
  catalog::CatalogHydrator hydrator(std::move(connection), std::move(requested),
                                    Resolver(LoadPlan::AllLazy()));
  hydrator.UseRowCache(row_cache_);
  return hydrator;
}

std::unique_ptr<catalog::TaskBatches> ReaderCatalog::TaskBatches(catalog::TaskFilter filter,
                                                                 const LoadPlan& plan,
                                                                 std::int64_t batch_size) const {
  auto [requested, parents_only] = Resolvers(plan);
  catalog::HydrateBatching batching{.task_batch = batch_size};
  if (AllLazy(plan)) {
    // Lazy tasks are small (no values, text behind handles): rounds of kTaskRound.
    batching.task_round = kTaskRound;
  } else {
    batching.task_record_cache = 0;
  }
  return std::make_unique<catalog::TaskBatches>(std::move(requested), std::move(parents_only),
                                                std::move(filter), batching);
}

std::uint64_t ReaderCatalog::opens() const {
  std::lock_guard lock(mutex_);
  return opens_;
}

std::uint64_t ReaderCatalog::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

void ReaderCatalog::Close() {
  {
    std::lock_guard lock(mutex_);
    if (catalog_) catalog_->Close();
  }
  row_cache_->Clear();
}

}  // namespace timef
