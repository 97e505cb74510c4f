// WriteValues: the §7.2 loop over sorted signals → chunks → row groups → shards, with the §7.4
// encoding decided per spec_type before its first shard opens.
#include "values/values_writer.h"

#include <algorithm>
#include <deque>
#include <future>
#include <limits>
#include <optional>
#include <set>
#include <span>
#include <system_error>
#include <tuple>

#include "core/paths.h"
#include "timef/error.h"
#include "values/buffered_chunk.h"
#include "values/encoding_decision.h"
#include "values/input_checks.h"
#include "values/shard_writer.h"
#include "values/zarr_writer.h"

namespace timef::values {
namespace {

// A str signal counts at least 4 bytes per step (its length prefix) until it is loaded and its
// exact step_bytes is known; every other dtype is exact up front.
std::int64_t EstimatedBytes(const SignalInput& input) {
  if (input.spec->dtype == model::DType::kStr) return input.n_values * 4;
  return input.n_values * StepBytes(*input.spec, model::ValueArray());
}

// A row group handed over for writing: its chunks' signals and value counts, its bytes, and (when
// encoded ahead) its encoding in progress.
struct RowGroupHandoff {
  std::vector<std::int64_t> signal_ids;
  std::vector<std::int64_t> n_values;
  std::int64_t bytes = 0;
  std::future<std::unique_ptr<RowGroupStage>> group;
};

class ValuesSession {
 public:
  ValuesSession(const std::filesystem::path& release_dir, const ValuesOptions& options,
                const std::function<void(const ShardEvent&)>& on_shard, std::int64_t total)
      : release_dir_(release_dir),
        options_(options),
        on_shard_(on_shard),
        row_group_(options.row_group_target_bytes),
        bytes_total_(total) {}

  // Writes one spec_type's signals (a run of the sorted inputs).
  void WriteSpecType(std::span<SignalInput> run) {
    spec_ = run.front().spec;
    encoding_ = FixedOrForcedEncoding(*spec_, options_);
    window_.clear();
    window_bytes_ = 0;
    for (SignalInput& input : run) {
      result_.chunks[input.signal_id];  // every input gets an entry, even without chunks
      if (input.load == nullptr && spec_->dtype != model::DType::kStr) {
        StreamPieces(input);
        continue;
      }
      std::deque<BufferedChunk> chunks = LoadAndChunk(input);
      while (!chunks.empty()) {
        BufferedChunk chunk = std::move(chunks.front());
        chunks.pop_front();
        Take(std::move(chunk));
      }
    }
    if (!encoding_.has_value() && !window_.empty()) Decide();
    FlushRowGroup();
    FinishEncodingAhead();
    CloseShard();
  }

  ValuesResult Finish() {
    std::sort(result_.shards.begin(), result_.shards.end(),
              [](const ShardInfo& a, const ShardInfo& b) { return a.path < b.path; });
    return std::move(result_);
  }

 private:
  // A chunk goes to the measurement window until the encoding is decided, then to its row group.
  void Take(BufferedChunk chunk) {
    if (encoding_.has_value()) {
      Accept(std::move(chunk));
      return;
    }
    window_bytes_ += chunk.bytes;
    window_.push_back(std::move(chunk));
    if (window_bytes_ >= kMeasureWindowBytes) Decide();
  }

  std::int64_t CheckedPerChunk(const SignalInput& input, std::int64_t step_bytes) const {
    const std::int64_t per_chunk = ValuesPerChunk(options_.chunk_max_bytes, step_bytes);
    if ((input.n_values + per_chunk - 1) / per_chunk > std::numeric_limits<std::int32_t>::max()) {
      throw ValidationError(
          ErrorSite{std::nullopt, "signal " + std::to_string(input.signal_id), "n_values"},
          "needs more than 2^31 - 1 chunks; raise chunk_max_bytes");
    }
    return per_chunk;
  }

  // A signal in pieces: each piece is checked and cut into the current chunk, each chunk taken as
  // soon as it is complete, so the signal is never whole in memory. step_bytes is exact up front
  // for every dtype but str (which goes through LoadAndChunk).
  void StreamPieces(SignalInput& input) {
    const std::int64_t step_bytes = StepBytes(*spec_, model::ValueArray());
    const std::int64_t per_chunk = CheckedPerChunk(input, step_bytes);
    PieceChunker chunker(input.signal_id, std::make_shared<const std::string>(input.name),
                         spec_->dtype, per_chunk, step_bytes,
                         [this](BufferedChunk chunk) { Take(std::move(chunk)); });
    std::int64_t steps = 0;
    const auto pieces = std::move(input.pieces);
    input.pieces = nullptr;  // called once; whatever it captured goes when this pass ends
    pieces([&](model::ValueArray piece) {
      CheckPiece(input, piece, steps);
      steps += piece.size();
      chunker.Add(piece);
    });
    CheckPieceTotal(input, steps);
    chunker.Finish();
  }

  // The whole array: the loader's, or (str) the pieces gathered.
  std::shared_ptr<const model::ValueArray> LoadWhole(SignalInput& input) {
    if (input.load) {
      std::shared_ptr<const model::ValueArray> values = input.load();
      input.load = nullptr;  // called once; whatever it captured goes too
      return values;
    }
    std::vector<model::ValueArray> gathered;
    std::int64_t steps = 0;
    input.pieces([&](model::ValueArray piece) {
      CheckPiece(input, piece, steps);
      steps += piece.size();
      gathered.push_back(std::move(piece));
    });
    input.pieces = nullptr;
    CheckPieceTotal(input, steps);
    return std::make_shared<const model::ValueArray>(model::ConcatSteps(spec_->dtype, gathered, 1));
  }

  std::deque<BufferedChunk> LoadAndChunk(SignalInput& input) {
    std::shared_ptr<const model::ValueArray> values = LoadWhole(input);
    CheckLoaded(input, values.get());
    const std::int64_t step_bytes = StepBytes(*spec_, *values);
    bytes_total_ += input.n_values * step_bytes - EstimatedBytes(input);
    const std::int64_t per_chunk = CheckedPerChunk(input, step_bytes);
    auto name = std::make_shared<const std::string>(input.name);
    std::deque<BufferedChunk> chunks;
    AppendChunks(input.signal_id, name, *values, per_chunk, step_bytes, chunks);
    return chunks;  // `values` is released here: only the chunk copies stay
  }

  void Decide() {
    encoding_ = MeasureEncoding(spec_->dtype, window_);
    std::deque<BufferedChunk> measured;
    measured.swap(window_);
    window_bytes_ = 0;
    while (!measured.empty()) {
      Accept(std::move(measured.front()));
      measured.pop_front();
    }
  }

  void Accept(BufferedChunk chunk) {
    if (row_group_.MustFlushBefore(chunk)) FlushRowGroup();
    row_group_.Add(std::move(chunk));
    if (row_group_.Full()) FlushRowGroup();
  }

  void FlushRowGroup() {
    if (row_group_.empty()) return;
    std::deque<BufferedChunk> chunks = row_group_.Take();
    RowGroupHandoff pending;
    pending.signal_ids.reserve(chunks.size());
    pending.n_values.reserve(chunks.size());
    for (const BufferedChunk& chunk : chunks) {
      pending.signal_ids.push_back(chunk.signal_id);
      pending.n_values.push_back(chunk.n_values());
      pending.bytes += chunk.bytes;
    }
    if (options_.compression_threads <= 1) {
      PlaceRowGroup(pending,
                    [&] { return shard_->WriteRowGroup(std::move(chunks), pending.n_values); });
      return;
    }
    // Encoded ahead: an encoded row group does not depend on the shard it lands in, so with N
    // threads up to N - 1 row groups are staged and encoded on threads of their own while this
    // thread loads the next (more than one ahead was no faster on 2 cores: 1.36-1.38 against
    // 1.29 s for the import bench's EDF files). They are written here in order, compressed in the
    // background on the Parquet writer's N threads, so the shards are those of one thread.
    if (!encode_options_) {
      encode_options_ = std::make_shared<const parquet::WriterOptions>(ShardWriterOptions(
          *spec_, *encoding_, options_,
          (release_dir_ / std::filesystem::path(kValuesShardTemplate).parent_path()).string() +
              " (spec_type " + spec_->spec_type + ")"));
    }
    std::unique_ptr<RowGroupStage> stage;
    if (spare_stages_.empty()) {
      stage = std::make_unique<RowGroupStage>(*spec_, *encode_options_);
    } else {
      stage = std::move(spare_stages_.back());
      spare_stages_.pop_back();
    }
    pending.group = std::async(std::launch::async, [spec = spec_, chunks = std::move(chunks),
                                                    stage = std::move(stage)]() mutable {
      EncodeRowGroup(*spec, std::move(chunks), *stage);
      return std::move(stage);
    });
    encoding_ahead_.push_back(std::move(pending));
    const auto ahead = static_cast<std::size_t>(options_.compression_threads - 1);
    while (encoding_ahead_.size() > ahead) WriteEncodedAhead();
  }

  // Writes the oldest row group encoded ahead (and rethrows its encoding's failure).
  void WriteEncodedAhead() {
    RowGroupHandoff pending = std::move(encoding_ahead_.front());
    encoding_ahead_.pop_front();
    std::unique_ptr<RowGroupStage> stage = pending.group.get();
    PlaceRowGroup(pending, [&] { return shard_->WriteRowGroup(stage->writer, pending.n_values); });
    spare_stages_.push_back(std::move(stage));  // empty again, its buffers kept for the next
  }

  void FinishEncodingAhead() {
    while (!encoding_ahead_.empty()) WriteEncodedAhead();
    spare_stages_.clear();
    encode_options_.reset();
  }

  // Writes one row group with `write` into the current shard, or a new one when the current shard
  // reached its target with the row groups before, and records where its chunks landed. A shard is
  // closed before the next row group rather than right after the one that filled it: the same
  // shards, but the previous row group can still be compressing in the background.
  template <typename Write>
  void PlaceRowGroup(const RowGroupHandoff& pending, Write&& write) {
    if (shard_ != nullptr && shard_->ReachedBytes(options_.shard_target_bytes)) CloseShard();
    pending_bytes_ += pending.bytes;
    if (shard_ == nullptr) OpenShard();
    std::vector<ChunkLocator> placed = std::forward<Write>(write)();
    for (std::size_t i = 0; i < placed.size(); ++i) {
      result_.chunks[pending.signal_ids[i]].push_back(std::move(placed[i]));
    }
  }

  void OpenShard() {
    const std::string value_path = PartPath(kValuesShardTemplate, next_part_++);
    if (!dir_made_) {
      std::error_code error;
      const std::filesystem::path dir = (release_dir_ / value_path).parent_path();
      std::filesystem::create_directories(dir, error);
      if (error) {
        throw FileError(ErrorSite{dir, "", ""}, "cannot create directory: " + error.message(),
                        error);
      }
      dir_made_ = true;
    }
    shard_ = std::make_unique<ShardWriter>(release_dir_, value_path, spec_, *encoding_, options_);
    result_.encodings[spec_->spec_type] = *encoding_;
  }

  void CloseShard() {
    if (shard_ == nullptr) return;
    result_.shards.push_back(shard_->Close());
    shard_.reset();
    bytes_done_ += pending_bytes_;
    pending_bytes_ = 0;
    if (on_shard_) on_shard_(ShardEvent{result_.shards.back(), bytes_done_, bytes_total_});
  }

 private:
  const std::filesystem::path& release_dir_;
  const ValuesOptions& options_;
  const std::function<void(const ShardEvent&)>& on_shard_;
  ValuesResult result_;
  std::shared_ptr<const model::Spec> spec_;
  std::optional<manifest::ValueEncoding> encoding_;
  std::deque<BufferedChunk> window_;
  std::int64_t window_bytes_ = 0;
  RowGroupBuffer row_group_;
  std::unique_ptr<ShardWriter> shard_;
  // Row groups encoding ahead, oldest first, and the options they are encoded with. Last but one:
  // a pending encoding is waited for (std::future) before what it was given goes.
  std::shared_ptr<const parquet::WriterOptions> encode_options_;
  std::vector<std::unique_ptr<RowGroupStage>> spare_stages_;  // written, kept for their buffers
  std::deque<RowGroupHandoff> encoding_ahead_;
  std::int64_t next_part_ = 0;
  bool dir_made_ = false;
  std::int64_t pending_bytes_ = 0;
  std::int64_t bytes_done_ = 0;
  std::int64_t bytes_total_ = 0;
};

}  // namespace

ValuesResult WriteValues(const std::filesystem::path& release_dir, std::vector<SignalInput> inputs,
                         const ValuesOptions& options,
                         const std::function<void(const ShardEvent&)>& on_shard) {
  if (options.backend == manifest::ValuesBackend::kZarr) {
    return WriteZarrValues(release_dir, std::move(inputs), options, on_shard);
  }
  ValidateValuesOptions(options);
  CheckInputs(inputs);
  std::set<std::string> seen;
  std::int64_t total = 0;
  for (const SignalInput& input : inputs) {
    if (seen.insert(input.spec->spec_type).second) FixedOrForcedEncoding(*input.spec, options);
    total += EstimatedBytes(input);
  }
  std::sort(inputs.begin(), inputs.end(), [](const SignalInput& a, const SignalInput& b) {
    return std::tie(a.spec->spec_type, a.name, a.signal_id) <
           std::tie(b.spec->spec_type, b.name, b.signal_id);
  });
  ValuesSession session(release_dir, options, on_shard, total);
  std::size_t begin = 0;
  while (begin < inputs.size()) {
    std::size_t end = begin + 1;
    while (end < inputs.size() && inputs[end].spec->spec_type == inputs[begin].spec->spec_type) {
      ++end;
    }
    session.WriteSpecType(std::span<SignalInput>(inputs).subspan(begin, end - begin));
    begin = end;
  }
  return session.Finish();
}

}  // namespace timef::values
