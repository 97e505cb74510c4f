#include "catalog/catalog_session.h"

#include <algorithm>
#include <chrono>

#include "timef/error.h"

namespace timef::catalog {

// Held by a lease and by everything made through it; its end tells the session that one more user
// is done with DuckDB. It is the last member those objects destroy, after their own DuckDB calls.
class CatalogSession::Token {
 public:
  explicit Token(std::shared_ptr<CatalogSession> session) : session_(std::move(session)) {}
  ~Token() { session_->Release(this); }
  Token(const Token&) = delete;
  Token& operator=(const Token&) = delete;

 private:
  std::shared_ptr<CatalogSession> session_;
};

std::shared_ptr<CatalogSession> CatalogSession::Make(std::filesystem::path path,
                                                     FirstOpenCheck check) {
  std::shared_ptr<CatalogSession> session(new CatalogSession(std::move(path), std::move(check)));
  RegisterForkParticipant(session);
  return session;
}

CatalogSession::~CatalogSession() {
  // Tokens own the session, so no user is left here.
  if (open_ != nullptr) open_->Close();
}

bool CatalogSession::HasUsers(const ConnectionHandle* handle) const {
  return std::any_of(users_.begin(), users_.end(),
                     [&](const User& u) { return u.handle.get() == handle; });
}

// Takes `lock` unless a fork is being prepared. The prepare handler keeps processed sessions
// locked until the fork ends, while it waits for other threads' leases; a thread that holds a
// lease on one catalog and blocked here on another would never let it finish.
bool CatalogSession::LockUnlessForking(std::unique_lock<std::mutex>& lock) {
  for (int attempt = 0; !lock.try_lock(); ++attempt) {
    if (ForkInProgress()) return false;
    if (attempt < 64) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
  return true;
}

CatalogLease CatalogSession::Lease() {
  std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
  if (!LockUnlessForking(lock) || ForkInProgress()) {
    throw ReaderError(ErrorSite{.file = path_}, "catalog connection closed for a fork");
  }
  if (open_ == nullptr) {
    Database db = Database::Open(path_, AccessMode::kReadOnly);
    Connection connection(db);
    if (!checked_) {
      try {
        check_(connection);
      } catch (...) {
        connection.handle()->Close();
        throw;
      }
      checked_ = true;
    }
    open_ = connection.handle();
  }
  // Reserve first: once the token exists, nothing may throw while the lock is held, because the
  // token's destructor takes the lock.
  users_.reserve(users_.size() + 1);
  auto token = std::make_shared<Token>(shared_from_this());
  users_.push_back(User{std::this_thread::get_id(), open_, token.get()});
  return CatalogLease(Connection(open_, std::move(token)));
}

void CatalogSession::Release(const void* token) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it =
      std::find_if(users_.begin(), users_.end(), [&](const User& u) { return u.token == token; });
  if (it == users_.end()) return;
  std::shared_ptr<ConnectionHandle> handle = std::move(it->handle);
  users_.erase(it);
  // A closed generation is freed by its last user.
  if (handle != open_ && !HasUsers(handle.get())) handle->Close();
  released_.notify_all();
}

void CatalogSession::Close() {
  std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
  // During a fork the prepare handler closes the connection anyway.
  if (!LockUnlessForking(lock)) return;
  if (open_ == nullptr) return;
  open_->Abort();
  if (!HasUsers(open_.get())) open_->Close();
  open_.reset();
}

bool CatalogSession::is_open() {
  std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
  if (!LockUnlessForking(lock)) return false;
  return open_ != nullptr;
}

void CatalogSession::PrepareFork() noexcept {
  std::unique_lock<std::mutex> lock(mutex_);
  for (const User& u : users_) u.handle->Abort();
  if (open_ != nullptr) open_->Abort();
  // Aborted reads end at their next step; the forking thread's own leases cannot end here.
  std::thread::id self = std::this_thread::get_id();
  released_.wait(lock, [&] {
    return std::all_of(users_.begin(), users_.end(),
                       [&](const User& u) { return u.thread == self; });
  });
  if (open_ != nullptr && !HasUsers(open_.get())) open_->Close();
  open_.reset();
  for (const User& u : users_) {
    if (std::find(forked_in_use_.begin(), forked_in_use_.end(), u.handle) == forked_in_use_.end()) {
      forked_in_use_.push_back(u.handle);
    }
  }
  // Held across fork() so that no thread reopens the catalog in between; the After handlers
  // unlock it.
  lock.release();
}

void CatalogSession::AfterForkInParent() noexcept {
  // The forking thread's own leases are aborted; their last user closes them as usual.
  forked_in_use_.clear();
  mutex_.unlock();
}

void CatalogSession::AfterForkInChild() noexcept {
  // The copies of handles the forking thread was using belong to the parent's DuckDB: never touch
  // them here.
  for (const auto& handle : forked_in_use_) handle->Leak();
  forked_in_use_.clear();
  mutex_.unlock();
}

}  // namespace timef::catalog
