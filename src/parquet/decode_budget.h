// One budget for the decoded buffers a reader holds (docs/format.md §7.7 "Decode budget"): the
// decompressed pages of every open Parquet shard (including parked ones) and the decoded Zarr
// inner chunks a reader keeps. A page's header declares its uncompressed size, and a few KB of
// zstd can declare hundreds of MB; per page the 1 GiB cap holds, but a reader keeps a buffer per
// open shard and array, so only a budget over all of them bounds what a release can make it hold.
// Thread-safe: the decode lanes of one reader share it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace timef::parquet {

class DecodeBudget {
 public:
  explicit DecodeBudget(std::uint64_t limit_bytes) : limit_(limit_bytes) {}
  DecodeBudget(const DecodeBudget&) = delete;
  DecodeBudget& operator=(const DecodeBudget&) = delete;

  std::uint64_t limit() const { return limit_; }
  // Bytes charged now, and the most ever charged at once (for tests: never above limit()).
  std::uint64_t held() const { return held_.load(std::memory_order_relaxed); }
  std::uint64_t peak() const { return peak_.load(std::memory_order_relaxed); }

  // Charges `bytes` when the total stays within the limit; false (nothing charged) otherwise.
  bool TryCharge(std::uint64_t bytes);
  void Release(std::uint64_t bytes);

 private:
  const std::uint64_t limit_;
  std::atomic<std::uint64_t> held_{0};
  std::atomic<std::uint64_t> peak_{0};
};

// A byte buffer whose size is charged to a budget (none: not charged) for as long as it holds the
// bytes. Buffers of the same budget may exchange their bytes (Swap): the total charged is the
// same.
class BudgetedBuffer {
 public:
  explicit BudgetedBuffer(DecodeBudget* budget = nullptr) : budget_(budget) {}
  ~BudgetedBuffer() { Free(); }
  BudgetedBuffer(BudgetedBuffer&& other) noexcept;
  BudgetedBuffer& operator=(BudgetedBuffer&& other) noexcept;
  BudgetedBuffer(const BudgetedBuffer&) = delete;
  BudgetedBuffer& operator=(const BudgetedBuffer&) = delete;

  void set_budget(DecodeBudget* budget);  // REQUIRES: empty
  DecodeBudget* budget() const { return budget_; }
  std::byte* data() { return bytes_.data(); }
  const std::byte* data() const { return bytes_.data(); }
  std::size_t size() const { return bytes_.size(); }

  // Grows to at least `bytes` (never shrinks); false, with nothing allocated, when the budget
  // cannot take the growth.
  bool Grow(std::size_t bytes);
  // Frees the bytes (and their charge) when more than `keep` are held.
  void Trim(std::size_t keep);
  void Free();
  // REQUIRES: the same budget.
  void Swap(BudgetedBuffer& other) noexcept { bytes_.swap(other.bytes_); }

 private:
  DecodeBudget* budget_;
  std::vector<std::byte> bytes_;  // its size is what is charged
};

}  // namespace timef::parquet
