#include "reader/reader_state.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "reader/lazy_handles.h"
#include "reader/read_resolver.h"
#include "timef/error.h"

namespace timef {
namespace fs = std::filesystem;

namespace {

int CheckedDecodeThreads(int threads) {
  if (threads < 1 || threads > 256) {
    throw ValidationError({.object = "ReaderOptions", .where = "decode_threads"},
                          "decode threads go from 1 to 256, got " + std::to_string(threads));
  }
  return threads;
}

std::uint64_t CheckedDecodeBudget(std::int64_t bytes) {
  if (bytes < 1) {
    throw ValidationError({.object = "ReaderOptions", .where = "decode_budget_bytes"},
                          "must be at least 1, got " + std::to_string(bytes));
  }
  return static_cast<std::uint64_t>(bytes);
}

catalog::CatalogIdentity IdentityOf(const manifest::Manifest& m) {
  return catalog::CatalogIdentity{m.dataset_id, m.metadata.dataset_version, m.metadata.parents};
}

}  // namespace

ReaderState::ReaderState(fs::path release_dir, manifest::Manifest manifest, ReaderOptions options,
                         ResolvedSources sources,
                         std::shared_ptr<const parquet::FileOpener> transport,
                         std::optional<LegacyOrigin> legacy)
    : manifest_(std::move(manifest)),
      options_(std::move(options)),
      locators_(std::move(release_dir), manifest_, std::move(sources), std::move(legacy)),
      catalog_(locators_.metadata_dir() / manifest_.files.control.path, IdentityOf(manifest_),
               options_.catalog_cache_bytes,
               // The handles a resolver builds share this state (shared_from_this, once the
               // state is owned by a shared_ptr: no resolver is made during construction).
               [this](const LoadPlan& plan) -> std::shared_ptr<const catalog::ValueResolver> {
                 return std::make_shared<const ReadResolver>(shared_from_this(), plan);
               }),
      signals_(catalog_, locators_, manifest_.counts.signal_chunks, options_.index_all_chunks),
      decode_budget_(std::make_shared<parquet::DecodeBudget>(
          CheckedDecodeBudget(options_.decode_budget_bytes))),
      files_(std::make_shared<FileSources>(std::move(transport))),
      lanes_(CheckedDecodeThreads(options_.decode_threads),
             static_cast<std::size_t>(std::max<std::int64_t>(0, options_.dictionary_cache_bytes)),
             decode_budget_, files_),
      payload_files_(files_, decode_budget_) {}

model::ValueArray ReaderState::ReadChunk(const values::ChunkRef& chunk, const model::Spec& spec) {
  return lanes_.OnAnyLane(
      [&](values::ChunkReader& lane) { return ReadChunkOn(lane, chunk, spec); });
}

model::ValueArray ReaderState::ReadSignal(std::span<const values::ChunkRef> chunks,
                                          const model::Spec& spec) {
  return lanes_.OnAnyLane(
      [&](values::ChunkReader& lane) { return ReadSignalOn(lane, chunks, spec); });
}

std::int64_t ReaderState::ReadSignalInto(std::span<const values::ChunkRef> chunks,
                                         const model::Spec& spec, model::ScalarSpan out,
                                         std::span<std::uint8_t> validity) {
  return lanes_.OnAnyLane([&](values::ChunkReader& lane) {
    return ReadSignalIntoOn(lane, chunks, spec, out, validity);
  });
}

void ReaderState::StartSignals(SignalBatch& batch, bool caller_runs_first) {
  std::vector<std::int64_t> weights;
  weights.reserve(batch.signals_.size());
  for (const auto& signal : batch.signals_) {
    std::int64_t values = 0;
    for (const values::ChunkRef& chunk : signal->chunks()) values += chunk.locator.n_values;
    weights.push_back(values);
  }
  const bool into = !batch.outs_.empty();
  if (into) {
    batch.nulls_.assign(batch.signals_.size(), 0);
  } else {
    batch.values_.assign(batch.signals_.size(), nullptr);
  }
  lanes_.Start(
      weights,
      [this, &batch, into](values::ChunkReader& lane, std::size_t begin, std::size_t end) {
        // The run's pages stay fetched until its last signal is decoded.
        const auto holds =
            PrefetchPages(lane, std::span(batch.signals_).subspan(begin, end - begin));
        for (std::size_t i = begin; i < end; ++i) {
          const LazySignalValues& signal = *batch.signals_[i];
          if (into) {
            batch.nulls_[i] = ReadSignalIntoOn(lane, signal.chunks(), signal.spec(), batch.outs_[i],
                                               batch.validity_[i]);
          } else {
            batch.values_[i] = std::make_shared<const model::ValueArray>(
                ReadSignalOn(lane, signal.chunks(), signal.spec()));
          }
        }
      },
      caller_runs_first, batch.job_);
}

std::vector<parquet::RandomAccessFile::PrefetchHold> ReaderState::PrefetchPages(
    values::ChunkReader& lane, std::span<const std::shared_ptr<const LazySignalValues>> signals) {
  std::vector<parquet::RandomAccessFile::PrefetchHold> holds;
  // A local release's files never prefetch: its decode runs skip the per-shard bookkeeping.
  if (!files_->remote()) return holds;
  try {
    // By shard; the file is looked up once per shard, and a shard whose file does not prefetch
    // (a local one) gets no ranges worked out.
    std::map<fs::path,
             std::pair<std::shared_ptr<parquet::RandomAccessFile>, std::vector<parquet::ByteRange>>>
        shards;
    for (const auto& signal : signals) {
      for (const values::ChunkRef& chunk : signal->chunks()) {
        if (chunk.zarr()) continue;
        auto& [file, ranges] = shards[chunk.file];
        if (!file) file = files_->Open(chunk.file);
        if (!file->prefetches()) continue;
        if (auto range = lane.PageRange(chunk)) ranges.push_back(*range);
      }
    }
    for (const auto& [path, shard] : shards) {
      if (!shard.second.empty()) holds.push_back(shard.first->Prefetch(shard.second));
    }
  } catch (const Error&) {
    // A hint only: the reads fetch their ranges themselves and raise their own errors.
  }
  return holds;
}

model::ValueArray ReaderState::ReadSignalOn(values::ChunkReader& lane,
                                            std::span<const values::ChunkRef> chunks,
                                            const model::Spec& spec) {
  if (chunks.size() == 1) return ReadChunkOn(lane, chunks[0], spec);
  std::vector<model::ValueArray> parts;
  parts.reserve(chunks.size());
  for (const values::ChunkRef& chunk : chunks) parts.push_back(ReadChunkOn(lane, chunk, spec));
  return values::ConcatValues(spec.dtype, parts);
}

std::int64_t ReaderState::ReadSignalIntoOn(values::ChunkReader& lane,
                                           std::span<const values::ChunkRef> chunks,
                                           const model::Spec& spec, model::ScalarSpan out,
                                           std::span<std::uint8_t> validity) {
  const std::int64_t width = std::max<std::int64_t>(1, spec.StepWidth());
  const auto scalars =
      static_cast<std::int64_t>(std::visit([](auto span) { return span.size(); }, out));
  std::int64_t step = 0, nulls = 0;
  for (const values::ChunkRef& chunk : chunks) {
    const std::int64_t n = chunk.locator.n_values;
    if (n < 0 || n > scalars / width - step) {
      throw FormatError(ErrorSite{chunk.file, "", "values of '" + chunk.locator.value_path + "'"},
                        "the signal's chunks hold more steps than its n_values (" +
                            std::to_string(scalars / width) + ")");
    }
    const model::ScalarSpan part = std::visit(
        [&](auto span) -> model::ScalarSpan { return span.subspan(step * width, n * width); }, out);
    const std::span<std::uint8_t> part_validity =
        validity.empty() ? validity : validity.subspan(step, n);
    if (!chunk.zarr()) {
      nulls += lane.ReadInto(chunk, spec, part, part_validity);
    } else {
      const model::ValueArray values = ReadChunkOn(lane, chunk, spec);
      if (values.size() != n * width || values.data().index() != part.index()) {
        throw FormatError(ErrorSite{chunk.file, "", "values of '" + chunk.locator.value_path + "'"},
                          "the Zarr chunk decoded to " + std::to_string(values.size()) +
                              " values, the locator says " + std::to_string(n * width));
      }
      nulls += model::CopyValuesInto(values, part, part_validity, chunk.locator.value_path);
    }
    step += n;
  }
  if (step * width != scalars) {
    throw FormatError(
        ErrorSite{chunks.empty() ? std::nullopt : std::optional(chunks.front().file), "", "values"},
        "the signal's chunks hold " + std::to_string(step) + " steps, its n_values is " +
            std::to_string(scalars / width));
  }
  return nulls;
}

model::ValueArray ReaderState::ReadChunkOn(values::ChunkReader& lane, const values::ChunkRef& chunk,
                                           const model::Spec& spec) {
  if (!chunk.zarr()) return lane.Read(chunk, spec);
  const ChunkLocator& l = chunk.locator;
  const std::string what = "Zarr store file of '" + l.value_path + "'";
  return payload_files_.ReadZarr(
      chunk, spec,
      [&](const std::string& relative) {
        return locators_.ResolveStoreFile(l.payload_source, relative, what);
      },
      [&](const std::string& relative) { return locators_.PinOf(l.payload_source, relative); });
}

std::string ReaderState::ReadText(const payload::TextRef& ref) {
  return payload_files_.ReadText(ref);
}

std::vector<std::string> ReaderState::ReadTextList(const payload::TextRef& ref) {
  return payload_files_.ReadTextList(ref);
}

std::vector<std::int64_t> ReaderState::ReadOffsets(const payload::OffsetsRef& ref) {
  return payload_files_.ReadOffsets(ref);
}

ReaderCounters ReaderState::counters() const {
  const values::ChunkReaderStats v = lanes_.stats();
  const values::ZarrReaderStats z = payload_files_.zarr_stats();
  const payload::PayloadReaderStats p = payload_files_.payload_stats();
  // Zarr: files are zarr.json and shard files, and an inner chunk counts as a decoded page.
  return ReaderCounters{.catalog_opens = catalog_.opens(),
                        .catalog_requests = catalog_.requests(),
                        .signals_indexed = signals_.size(),
                        .values_files_opened = v.files_opened + z.files_opened,
                        .chunks_read = v.chunks_read + z.chunks_read,
                        .data_pages_decoded = v.pages.data_pages_decoded + z.inner_chunks_decoded,
                        .data_pages_resumed = v.pages.data_pages_resumed,
                        .dictionary_pages_decoded = v.pages.dictionary_pages_decoded,
                        .dictionary_cache_hits = v.dictionaries.hits,
                        .catalog_cache_loads = catalog_.row_cache()->loads(),
                        .payload_files_opened = p.files_opened,
                        .payload_values_read = p.values_read,
                        .decode_budget_peak = decode_budget_->peak()};
}

void ReaderState::Close() {
  catalog_.Close();
  lanes_.Clear();
  payload_files_.Clear();
  files_->Close();
}

}  // namespace timef
