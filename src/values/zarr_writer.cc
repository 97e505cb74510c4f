// WriteZarrValues: docs/format.md §8 — per spec_type one values array (and a validity array for a
// nullable spec), filled shard by shard as the sorted signals are loaded.
#include "values/zarr_writer.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <span>
#include <system_error>
#include <tuple>
#include <type_traits>

#include "core/json_forms.h"
#include "parquet/file_io.h"
#include "timef/error.h"
#include "values/input_checks.h"
#include "values/zarr_store.h"

namespace timef::values {
namespace {

namespace fs = std::filesystem;
using zarr::ArrayLayout;
using zarr::ArrayMetaJson;

// 2^30 steps per locator (docs/format.md §8.6).
constexpr std::int64_t kMaxLocatorSteps = std::int64_t{1} << 30;

void MakeDirs(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) {
    throw FileError(ErrorSite{dir, "", ""}, "cannot create directory: " + error.message(), error);
  }
}

// Writes `bytes` to a new file, durably.
void WriteNewFile(const fs::path& path, std::span<const std::uint8_t> bytes) {
  MakeDirs(path.parent_path());
  parquet::FileOutputStream out(path, {.fsync_on_close = true, .exclusive = true});
  out.Write(std::as_bytes(bytes));
  out.Close();
}

// The little-endian bytes of an array's scalars (x86-64 and aarch64 are little endian).
std::span<const std::uint8_t> RawBytes(const model::ValueArray& values) {
  static_assert(std::endian::native == std::endian::little,
                "the Zarr writer assumes little endian");
  return std::visit(
      [](const auto& held) -> std::span<const std::uint8_t> {
        using T = typename std::decay_t<decltype(held)>::value_type;
        if constexpr (std::is_same_v<T, std::string>) {
          return {};
        } else {
          return {reinterpret_cast<const std::uint8_t*>(held.data()), held.size() * sizeof(T)};
        }
      },
      values.data());
}

// One array of the store being filled: steps are appended, a shard file is written whenever
// shard_len steps are buffered, Finish() writes the last (partial) shard and the zarr.json.
class ArrayWriter {
 public:
  ArrayWriter(const fs::path& release_dir, std::string path, std::string spec_type,
              ArrayLayout layout, std::function<void(ShardInfo)> on_file)
      : release_dir_(release_dir),
        path_(std::move(path)),
        spec_type_(std::move(spec_type)),
        layout_(std::move(layout)),
        on_file_(std::move(on_file)) {
    step_bytes_ = layout_.item_size;
    for (std::int64_t d : layout_.value_shape) step_bytes_ *= d;
    buffer_.reserve(static_cast<std::size_t>(layout_.shard_len * step_bytes_));
  }

  // Appends whole steps (bytes.size() a multiple of the step size).
  void Append(std::span<const std::uint8_t> bytes) {
    while (!bytes.empty()) {
      const std::size_t room =
          static_cast<std::size_t>(layout_.shard_len * step_bytes_) - buffer_.size();
      const std::size_t n = std::min(room, bytes.size());
      buffer_.insert(buffer_.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
      bytes = bytes.subspan(n);
      if (buffer_.size() == static_cast<std::size_t>(layout_.shard_len * step_bytes_)) FlushShard();
    }
  }

  void Finish() {
    if (!buffer_.empty()) FlushShard();
    if (steps_written_ != layout_.total_steps) {
      throw Error("zarr writer: " + path_ + " got " + std::to_string(steps_written_) +
                  " steps, expected " + std::to_string(layout_.total_steps));
    }
    const std::string text = WriteManifestJson(ArrayMetaJson(layout_));
    WriteFile(path_ + "/zarr.json",
              std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  }

 private:
  void FlushShard() {
    const std::int64_t steps = static_cast<std::int64_t>(buffer_.size()) / step_bytes_;
    const std::int64_t per_shard = layout_.shard_len / layout_.chunk_len;
    const std::size_t chunk_bytes = static_cast<std::size_t>(layout_.chunk_len * step_bytes_);
    std::vector<std::uint8_t> file;
    std::vector<std::uint8_t> index;
    index.reserve(static_cast<std::size_t>(per_shard) * 16 + 4);
    auto put64 = [&](std::uint64_t v) {
      for (int i = 0; i < 8; ++i) index.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    };
    std::vector<std::uint8_t> padded;
    for (std::int64_t j = 0; j < per_shard; ++j) {
      const std::int64_t first = j * layout_.chunk_len;
      if (first >= steps) {
        put64(zarr::kAbsent);
        put64(zarr::kAbsent);
        continue;
      }
      std::span<const std::uint8_t> chunk(
          buffer_.data() + first * step_bytes_,
          std::min(chunk_bytes, buffer_.size() - first * step_bytes_));
      if (chunk.size() < chunk_bytes) {  // the array's last chunk: padded with the fill value 0
        padded.assign(chunk.begin(), chunk.end());
        padded.resize(chunk_bytes, 0);
        chunk = padded;
      }
      const std::vector<std::uint8_t> frame =
          zarr::BloscCompress(chunk, layout_.item_size, layout_.clevel);
      put64(file.size());
      put64(frame.size());
      file.insert(file.end(), frame.begin(), frame.end());
    }
    const std::uint32_t crc = zarr::Crc32c(index);
    for (int i = 0; i < 4; ++i) index.push_back(static_cast<std::uint8_t>(crc >> (8 * i)));
    file.insert(file.end(), index.begin(), index.end());
    zarr::ArrayMeta keys;
    keys.shape.assign(1 + layout_.value_shape.size(), 0);
    WriteFile(path_ + "/" + keys.ChunkKey(shard_index_++), file);
    steps_written_ += steps;
    buffer_.clear();
  }

  void WriteFile(const std::string& relative, std::span<const std::uint8_t> bytes) {
    WriteNewFile(release_dir_ / relative, bytes);
    on_file_(ShardInfo{relative, spec_type_, static_cast<std::int64_t>(bytes.size()), 0, 0});
  }

  const fs::path& release_dir_;
  std::string path_;
  std::string spec_type_;
  ArrayLayout layout_;
  std::function<void(ShardInfo)> on_file_;
  std::int64_t step_bytes_ = 1;
  std::vector<std::uint8_t> buffer_;
  std::int64_t shard_index_ = 0;
  std::int64_t steps_written_ = 0;
};

}  // namespace

ValuesResult WriteZarrValues(const fs::path& release_dir, std::vector<SignalInput> inputs,
                             const ValuesOptions& options,
                             const std::function<void(const ShardEvent&)>& on_shard) {
  ValidateValuesOptions(options);
  CheckInputs(inputs, manifest::ValuesBackend::kZarr);
  std::sort(inputs.begin(), inputs.end(), [](const SignalInput& a, const SignalInput& b) {
    return std::tie(a.spec->spec_type, a.name, a.signal_id) <
           std::tie(b.spec->spec_type, b.name, b.signal_id);
  });
  std::int64_t bytes_total = 0;
  for (const SignalInput& input : inputs) {
    bytes_total += input.n_values * StepBytes(*input.spec, model::ValueArray());
  }
  ValuesResult result;
  std::int64_t bytes_done = 0;
  auto on_file = [&](ShardInfo info) {
    result.shards.push_back(std::move(info));
    if (on_shard) on_shard(ShardEvent{result.shards.back(), bytes_done, bytes_total});
  };
  if (inputs.empty()) return result;

  const std::string root = std::string(zarr::kStoreDir) + "/zarr.json";
  const std::string group = WriteManifestJson(zarr::GroupMetaJson());
  const std::span group_bytes(reinterpret_cast<const std::uint8_t*>(group.data()), group.size());
  WriteNewFile(release_dir / root, group_bytes);
  on_file(ShardInfo{root, "", static_cast<std::int64_t>(group.size()), 0, 0});
  bool validity_group = false;

  std::size_t begin = 0;
  while (begin < inputs.size()) {
    std::size_t end = begin + 1;
    while (end < inputs.size() && inputs[end].spec->spec_type == inputs[begin].spec->spec_type) {
      ++end;
    }
    const model::Spec& spec = *inputs[begin].spec;
    std::int64_t total_steps = 0;
    for (std::size_t i = begin; i < end; ++i) total_steps += inputs[i].n_values;
    const std::int64_t step_bytes = StepBytes(spec, model::ValueArray());

    ArrayLayout layout =
        zarr::SizedLayout(step_bytes, options.chunk_max_bytes, options.shard_target_bytes);
    layout.total_steps = total_steps;
    layout.value_shape = spec.value_shape;
    layout.data_type = *zarr::DataTypeName(spec.dtype);
    layout.item_size = zarr::ItemSize(layout.data_type);
    layout.clevel = options.zarr_compression_level;
    layout.dimension_names = spec.dimension_names;
    const std::string path = zarr::ValuesArrayPath(spec.spec_type);
    ArrayWriter values(release_dir, path, spec.spec_type, layout, on_file);

    std::optional<ArrayWriter> validity;
    if (spec.nullable) {
      if (!validity_group) {
        const std::string rel =
            std::string(zarr::kStorePrefix) + std::string(zarr::kValidityGroup) + "/zarr.json";
        WriteNewFile(release_dir / rel, group_bytes);
        on_file(ShardInfo{rel, "", static_cast<std::int64_t>(group.size()), 0, 0});
        validity_group = true;
      }
      ArrayLayout v = zarr::SizedLayout(1, options.chunk_max_bytes, options.shard_target_bytes);
      v.total_steps = total_steps;
      v.data_type = "bool";
      v.item_size = 1;
      v.clevel = options.zarr_compression_level;
      validity.emplace(release_dir, zarr::ValidityArrayPath(spec.spec_type), spec.spec_type, v,
                       on_file);
    }

    std::int64_t start = 0;
    std::vector<std::uint8_t> zeroed;
    std::vector<std::uint8_t> present;
    for (std::size_t i = begin; i < end; ++i) {
      SignalInput& input = inputs[i];
      std::vector<ChunkLocator>& placed = result.chunks[input.signal_id];
      // Appends conformed steps (the whole array, or one piece) to the values and validity arrays.
      auto append = [&](const model::ValueArray& loaded) {
        const std::int64_t steps = loaded.size() / std::max<std::int64_t>(1, spec.StepWidth());
        std::span<const std::uint8_t> bytes = RawBytes(loaded);
        if (loaded.has_validity()) {
          // A null timestep stores 0 (docs/format.md §8.1).
          const std::size_t sb = static_cast<std::size_t>(step_bytes);
          zeroed.assign(bytes.begin(), bytes.end());
          for (std::int64_t s = 0; s < steps; ++s) {
            if (!loaded.IsValid(s)) std::memset(zeroed.data() + s * sb, 0, sb);
          }
          bytes = zeroed;
        }
        values.Append(bytes);
        if (validity) {
          if (loaded.has_validity()) {
            present.assign(loaded.validity().begin(), loaded.validity().end());
            for (std::uint8_t& p : present) p = p != 0 ? 1 : 0;
          } else {
            present.assign(static_cast<std::size_t>(steps), 1);
          }
          validity->Append(present);
        }
      };
      if (input.load) {
        std::shared_ptr<const model::ValueArray> loaded = input.load();
        input.load = nullptr;
        CheckLoaded(input, loaded.get());
        append(*loaded);
      } else {
        // In pieces: the arrays take steps as they come, so a piece boundary is no boundary in
        // the store, and only a shard's worth of steps is buffered.
        const auto pieces = std::move(input.pieces);
        input.pieces = nullptr;
        std::int64_t steps = 0;
        const std::int64_t width = std::max<std::int64_t>(1, spec.StepWidth());
        pieces([&](model::ValueArray piece) {
          CheckPiece(input, piece, steps);
          steps += piece.size() / width;
          append(piece);
        });
        CheckPieceTotal(input, steps);
      }
      for (std::int64_t off = 0; off < input.n_values; off += kMaxLocatorSteps) {
        placed.push_back(
            ChunkLocator{.payload_source = std::nullopt,
                         .value_path = path,
                         .major = start + off,
                         .minor = std::nullopt,
                         .n_values = std::min(kMaxLocatorSteps, input.n_values - off)});
      }
      start += input.n_values;
      bytes_done += input.n_values * step_bytes;
    }
    values.Finish();
    if (validity) validity->Finish();
    begin = end;
  }
  std::sort(result.shards.begin(), result.shards.end(),
            [](const ShardInfo& a, const ShardInfo& b) { return a.path < b.path; });
  return result;
}

}  // namespace timef::values
