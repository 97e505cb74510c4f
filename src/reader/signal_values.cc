// Values by signal ID through the reader's compact locator index: no record is built, and once
// the index holds a signal its reads run no SQL.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "reader/lazy_handles.h"
#include "reader/reader_state.h"
#include "timef/error.h"
#include "timef/reader.h"

namespace timef {
namespace {

std::string Describe(std::int64_t id) { return "signal " + std::to_string(id); }

// Whether `a`'s values start before `b`'s: by their first chunks' file, row group and row (a
// handle without chunks first).
bool StartsBefore(const LazySignalValues& a, const LazySignalValues& b) {
  if (a.chunks().empty() || b.chunks().empty()) return a.chunks().empty() && !b.chunks().empty();
  const values::ChunkRef& x = a.chunks().front();
  const values::ChunkRef& y = b.chunks().front();
  if (const int file = x.file.native().compare(y.file.native()); file != 0) return file < 0;
  return std::make_pair(x.locator.major, x.locator.minor.value_or(0)) <
         std::make_pair(y.locator.major, y.locator.minor.value_or(0));
}

// A batch's refs split: those whose handles are `state`'s, with their indices, sorted stably by
// where their values start (so a batch reads each shard front to back, whatever order the caller
// asks for: a training batch of records, each of signals stored apart), and the others' indices.
struct ByStorage {
  std::vector<std::pair<std::size_t, std::shared_ptr<const LazySignalValues>>> ours;
  std::vector<std::size_t> others;
};
template <class SourceOf>
ByStorage InStorageOrder(std::size_t n, SourceOf source_of,
                         const std::shared_ptr<ReaderState>& state) {
  ByStorage split;
  for (std::size_t i = 0; i < n; ++i) {
    auto lazy = std::dynamic_pointer_cast<const LazySignalValues>(source_of(i));
    if (lazy != nullptr && lazy->state() == state) {
      split.ours.emplace_back(i, std::move(lazy));
    } else {
      split.others.push_back(i);
    }
  }
  std::stable_sort(split.ours.begin(), split.ours.end(),
                   [](const auto& a, const auto& b) { return StartsBefore(*a.second, *b.second); });
  return split;
}

}  // namespace

std::shared_ptr<const model::ValueArray> SignalValuesRef::LoadValues() const {
  if (!values_)
    throw Error({.object = Describe(id_), .where = "values"}, "the signal has no values");
  return values_->Load();
}

namespace {
// The ref's buffers checked for its signal (SignalValuesRef::LoadValuesInto).
void CheckBuffers(const SignalValuesRef& ref, const model::ScalarSpan& out,
                  std::span<const std::uint8_t> validity, const std::string& object) {
  if (!ref.has_values())
    throw Error({.object = object, .where = "values"}, "the signal has no values");
  const std::int64_t width = std::max<std::int64_t>(1, ref.spec().StepWidth());
  model::CheckValueBuffers(ref.spec().dtype, ref.n_values() * width, ref.n_values(), out, validity,
                           object);
}
}  // namespace

void SignalValuesRef::LoadValuesInto(model::ScalarSpan out,
                                     std::span<std::uint8_t> validity) const {
  const std::string object = Describe(id_);
  CheckBuffers(*this, out, validity, object);
  values_->LoadInto(out, validity, object);
}

model::ValueArray SignalValuesRef::ReadSteps(std::int64_t begin, std::int64_t end) const {
  if (begin < 0 || begin > end) {
    throw ValidationError({.object = Describe(id_), .where = "steps"},
                          "a window needs 0 ≤ begin ≤ end, got [" + std::to_string(begin) + ", " +
                              std::to_string(end) + ")");
  }
  if (!values_)
    throw Error({.object = Describe(id_), .where = "values"}, "the signal has no values");
  end = std::min(end, n_values_);
  begin = std::min(begin, end);
  return values_->ReadSteps(begin, end, spec_->StepWidth());
}

std::vector<SignalValuesRef> Reader::GetSignalValues(std::span<const std::int64_t> ids) {
  for (std::int64_t id : ids) {
    if (id <= 0) {
      throw ValidationError({.object = "signal", .where = "id"},
                            "IDs are positive int64, got " + std::to_string(id));
    }
  }
  if (ids.empty()) return {};
  std::vector<SignalDirectory::Signal> signals = state_->signals().Signals(ids);
  std::vector<SignalValuesRef> out(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    SignalDirectory::Signal& signal = signals[i];
    SignalValuesRef& ref = out[i];
    ref.id_ = ids[i];
    ref.record_id_ = signal.record_id;
    ref.n_values_ = signal.n_values;
    ref.spec_ = std::move(signal.spec);
    if (!signal.chunks.empty()) {
      ref.values_ =
          std::make_shared<const LazySignalValues>(state_, ref.spec_, std::move(signal.chunks));
    }
  }
  return out;
}

std::vector<std::shared_ptr<const model::ValueArray>> Reader::LoadValues(
    std::span<const SignalValuesRef> refs) {
  for (const SignalValuesRef& ref : refs) {
    if (!ref.values_) {
      throw Error({.object = Describe(ref.id_), .where = "values"}, "the signal has no values");
    }
  }
  SignalBatch batch;
  std::vector<std::size_t> batch_at(refs.size(), refs.size());
  ByStorage split = InStorageOrder(
      refs.size(), [&](std::size_t i) { return refs[i].values_; }, state_);
  for (auto& [i, lazy] : split.ours) batch_at[i] = batch.Add(std::move(lazy));
  state_->StartSignals(batch, /*caller_runs_first=*/true);
  batch.Wait();
  std::vector<std::shared_ptr<const model::ValueArray>> out;
  out.reserve(refs.size());
  for (std::size_t i = 0; i < refs.size(); ++i) {
    out.push_back(batch_at[i] < refs.size() ? batch.Value(batch_at[i]) : refs[i].values_->Load());
  }
  return out;
}

void Reader::LoadValuesInto(std::span<const SignalValuesRef> refs,
                            std::span<const model::ScalarSpan> outs,
                            std::span<const std::span<std::uint8_t>> validity) {
  if (outs.size() != refs.size() || (!validity.empty() && validity.size() != refs.size())) {
    throw ValidationError({.object = "values", .where = "buffers"},
                          std::to_string(refs.size()) + " signals, " + std::to_string(outs.size()) +
                              " value buffers and " + std::to_string(validity.size()) +
                              " validity buffers (none, or one per signal)");
  }
  auto validity_of = [&](std::size_t i) {
    return validity.empty() ? std::span<std::uint8_t>() : validity[i];
  };
  for (std::size_t i = 0; i < refs.size(); ++i) {
    CheckBuffers(refs[i], outs[i], validity_of(i), Describe(refs[i].id_));
  }
  SignalBatch batch;
  ByStorage split = InStorageOrder(
      refs.size(), [&](std::size_t i) { return refs[i].values_; }, state_);
  for (auto& [i, lazy] : split.ours) batch.AddInto(std::move(lazy), outs[i], validity_of(i));
  if (!split.ours.empty()) {
    state_->StartSignals(batch, /*caller_runs_first=*/true);
    batch.Wait();
  }
  for (std::size_t k = 0; k < split.ours.size(); ++k) {
    const std::size_t i = split.ours[k].first;
    if (batch.Nulls(k) > 0 && validity_of(i).empty()) {
      model::ThrowNullsWithoutValidity(batch.Nulls(k), Describe(refs[i].id_));
    }
  }
  for (std::size_t i : split.others) {
    refs[i].values_->LoadInto(outs[i], validity_of(i), Describe(refs[i].id_));
  }
}

SignalValuesRef Reader::GetSignalValues(std::int64_t id) {
  return std::move(GetSignalValues(std::span<const std::int64_t>(&id, 1)).front());
}

}  // namespace timef
