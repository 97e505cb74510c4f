#include "parquet/decode_budget.h"

#include <utility>

namespace timef::parquet {

bool DecodeBudget::TryCharge(std::uint64_t bytes) {
  std::uint64_t held = held_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit_ || held > limit_ - bytes) return false;
  } while (!held_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
  const std::uint64_t now = held + bytes;
  std::uint64_t peak = peak_.load(std::memory_order_relaxed);
  while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  return true;
}

void DecodeBudget::Release(std::uint64_t bytes) {
  held_.fetch_sub(bytes, std::memory_order_relaxed);
}

BudgetedBuffer::BudgetedBuffer(BudgetedBuffer&& other) noexcept
    : budget_(other.budget_), bytes_(std::move(other.bytes_)) {
  other.bytes_.clear();
}

BudgetedBuffer& BudgetedBuffer::operator=(BudgetedBuffer&& other) noexcept {
  if (this != &other) {
    Free();
    budget_ = other.budget_;
    bytes_ = std::move(other.bytes_);
    other.bytes_.clear();
  }
  return *this;
}

void BudgetedBuffer::set_budget(DecodeBudget* budget) {
  Free();
  budget_ = budget;
}

bool BudgetedBuffer::Grow(std::size_t bytes) {
  if (bytes <= bytes_.size()) return true;
  const std::size_t more = bytes - bytes_.size();
  if (budget_ != nullptr && !budget_->TryCharge(more)) return false;
  try {
    bytes_.resize(bytes);
  } catch (...) {
    if (budget_ != nullptr) budget_->Release(more);
    throw;
  }
  return true;
}

void BudgetedBuffer::Trim(std::size_t keep) {
  if (bytes_.size() > keep) Free();
}

void BudgetedBuffer::Free() {
  if (budget_ != nullptr) budget_->Release(bytes_.size());
  std::vector<std::byte>().swap(bytes_);
}

}  // namespace timef::parquet
