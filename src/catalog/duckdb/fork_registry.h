// Closing catalog connections around fork(). DuckDB cannot be used across fork(): its worker
// threads do not exist in the child and its locks may be held by them. So every catalog connection
// is closed before the fork and reopened on its next query, in parent and child alike.
//
// This is the one process-wide mutable object of timef, and deliberately so: pthread_atfork
// handlers take no argument, so they can reach open connections only through a process-wide list.
// It holds weak references and is guarded by a mutex that the prepare handler keeps locked until
// the parent and child handlers run, so no connection can register or reopen mid-fork.
#pragma once

#include <memory>

namespace timef::catalog {

class ForkParticipant {
 public:
  virtual ~ForkParticipant() = default;
  // Runs in the forking thread before fork(): close connections, after waiting for other threads'
  // reads to stop. Keeps the participant's own lock held until one of the After handlers.
  virtual void PrepareFork() noexcept = 0;
  virtual void AfterForkInParent() noexcept = 0;
  virtual void AfterForkInChild() noexcept = 0;
};

// Adds `participant` to the list (installing the atfork handlers on first use). Raises ReaderError
// when called while a fork is being prepared, rather than waiting for it: the caller may hold a
// read that the fork is waiting for.
void RegisterForkParticipant(std::weak_ptr<ForkParticipant> participant);

// True between the prepare handler and the parent/child handler.
bool ForkInProgress();

}  // namespace timef::catalog
