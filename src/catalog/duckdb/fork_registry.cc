#include "catalog/duckdb/fork_registry.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "timef/error.h"

namespace timef::catalog {
namespace {

struct Registry {
  std::mutex mutex;
  std::atomic<bool> forking{false};
  std::vector<std::weak_ptr<ForkParticipant>> entries;
  // The participants being forked, from prepare to the After handlers.
  std::vector<std::shared_ptr<ForkParticipant>> held;
};

// Leaked on purpose: atfork handlers may run during static destruction.
Registry& TheRegistry() {
  static Registry* registry = new Registry;
  return *registry;
}

void Prepare() {
  Registry& r = TheRegistry();
  r.forking.store(true);
  r.mutex.lock();
  std::erase_if(r.entries, [](const auto& e) { return e.expired(); });
  for (const auto& entry : r.entries) {
    if (auto p = entry.lock()) r.held.push_back(std::move(p));
  }
  for (const auto& p : r.held) p->PrepareFork();
}

void Finish(bool child) {
  Registry& r = TheRegistry();
  r.forking.store(false);
  for (const auto& p : r.held) {
    if (child) {
      p->AfterForkInChild();
    } else {
      p->AfterForkInParent();
    }
  }
  std::vector<std::shared_ptr<ForkParticipant>> held = std::move(r.held);
  r.held.clear();
  r.mutex.unlock();
  // Dropped outside the lock: the last reference may close a participant.
}

void InParent() { Finish(false); }
void InChild() { Finish(true); }

}  // namespace

bool ForkInProgress() { return TheRegistry().forking.load(); }

void RegisterForkParticipant(std::weak_ptr<ForkParticipant> participant) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    if (pthread_atfork(&Prepare, &InParent, &InChild) != 0) {
      throw Error("cannot install the fork handlers of the catalog");
    }
  });
  Registry& r = TheRegistry();
  // try_lock, not lock: during a fork the mutex stays held until the fork ends, and this thread may
  // hold a read that the forking thread waits for.
  while (!r.mutex.try_lock()) {
    if (r.forking.load()) {
      throw ReaderError(ErrorSite{.object = "catalog"}, "cannot open a catalog while forking");
    }
    std::this_thread::yield();
  }
  std::lock_guard<std::mutex> guard(r.mutex, std::adopt_lock);
  std::erase_if(r.entries, [](const auto& e) { return e.expired(); });
  r.entries.push_back(std::move(participant));
}

}  // namespace timef::catalog
