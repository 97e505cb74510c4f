// The part of a reader that reads its catalog (docs/architecture.md "Reader parts"): the catalog
// session (opened by the first lease, with the §6.1 checks on first open), the row cache of
// lookups by ID, the catalog counters, and the factory of what a read hydrates with: the
// resolvers of a LoadPlan, the CatalogHydrator of one lease and IterTasks' TaskBatches.
//
// Ownership: owned by the ReaderState. It owns the CatalogReader and shares the row cache with
// the hydrators it makes; the resolvers come from the `make_resolver` it is given (ReadResolvers
// sharing the ReaderState). Lifetime: Close() closes the session and clears the row cache; the
// next lease opens the catalog again (a remote release's local copy is fetched again first if it
// was removed). Threading: one mutex guards the session's creation and opening, the catalog file
// function and the counters; it is held while a lease is taken (which may open the catalog or
// fetch a remote release's copy), never while a lease is used. Leases themselves, Close() and
// fork() are catalog::CatalogSession's to serialize; the row cache is thread-safe. A caller may
// hold the SignalDirectory's lock when it calls in, never the reverse. Errors: Lease's (FileError
// for a missing catalog, FormatError for one that is not this release's, ReaderError during a
// fork), and what the remote catalog file function throws.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>

#include "catalog/catalog_reader.h"
#include "catalog/hydrate/hydrate.h"
#include "catalog/hydrate/value_resolver.h"
#include "timef/reader.h"

namespace timef {

class ReaderCatalog {
 public:
  using MakeResolver =
      std::function<std::shared_ptr<const catalog::ValueResolver>(const LoadPlan& plan)>;

  // `control_file` is the local catalog (unless set_catalog_file gives another);
  // `cache_bytes` the row cache's budget (ReaderOptions::catalog_cache_bytes, below 0 = 0).
  ReaderCatalog(std::filesystem::path control_file, catalog::CatalogIdentity identity,
                std::int64_t cache_bytes, MakeResolver make_resolver);

  // A remote release (docs/remote.md): its catalog is the local copy `catalog_file` returns
  // (fetched and verified into the cache; called before each (re)open, so a removed copy is
  // fetched again). Set before the first lease.
  void set_catalog_file(std::function<std::filesystem::path()> catalog_file);
  bool remote() const;

  // The catalog session (opened by the first lease; §6.1 checks on first open).
  catalog::CatalogLease Lease();
  // The resolver of a read with `plan` (ReadResolver), for the table exports.
  std::shared_ptr<const catalog::ValueResolver> Resolver(const LoadPlan& plan) const;
  // A hydrator whose ValueResolver builds lazy (or, per `plan`, loaded) values, offsets and text;
  // what only from_tasks parents reach is resolved all lazy (docs/format.md §11.5).
  catalog::CatalogHydrator Hydrator(catalog::Connection connection, const LoadPlan& plan) const;
  // The same with `requested` as the resolver of what the read asked for (what only from_tasks
  // parents reach stays all lazy).
  catalog::CatalogHydrator Hydrator(catalog::Connection connection,
                                    std::shared_ptr<const catalog::ValueResolver> requested) const;
  // IterTasks' cursor over `filter`, with the same two resolvers. Records are reused across
  // batches only when `plan` loads nothing eagerly, so a stream's memory stays that of a batch
  // when the plan loads values.
  std::unique_ptr<catalog::TaskBatches> TaskBatches(catalog::TaskFilter filter,
                                                    const LoadPlan& plan,
                                                    std::int64_t batch_size) const;
  // The row cache of lookups by ID (ReaderOptions::catalog_cache_bytes); thread-safe.
  const std::shared_ptr<catalog::CatalogRowCache>& row_cache() const { return row_cache_; }

  // Catalog opens and leases taken since construction.
  std::uint64_t opens() const;
  std::uint64_t requests() const;
  void Close();

 private:
  struct ResolverPair {
    std::shared_ptr<const catalog::ValueResolver> requested;
    std::shared_ptr<const catalog::ValueResolver> parents_only;
  };
  // `requested` for `plan`; `parents_only` all lazy (the same object when `plan` is).
  ResolverPair Resolvers(const LoadPlan& plan) const;

  const std::filesystem::path control_file_;
  const catalog::CatalogIdentity identity_;
  const std::shared_ptr<catalog::CatalogRowCache> row_cache_;
  const MakeResolver make_resolver_;
  mutable std::mutex mutex_;  // guards everything below
  std::function<std::filesystem::path()> catalog_file_;
  std::unique_ptr<catalog::CatalogReader> catalog_;
  std::uint64_t opens_ = 0;
  std::uint64_t requests_ = 0;
};

}  // namespace timef
