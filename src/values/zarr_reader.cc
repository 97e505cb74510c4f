#include "values/zarr_reader.h"

#include <algorithm>
#include <cstring>
#include <list>

#include "parquet/file_io.h"
#include "timef/error.h"
#include "values/zarr_store.h"

namespace timef::values {
namespace {

namespace fs = std::filesystem;

// Decoded inner chunks kept per array (each at most chunk_max_bytes, 1 MiB by default).
constexpr std::size_t kCachedChunks = 16;

template <class T>
std::vector<T> Typed(const std::vector<std::uint8_t>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

model::ValueArray ToArray(model::DType dtype, const std::vector<std::uint8_t>& bytes,
                          std::vector<std::uint8_t> validity) {
  using model::DType;
  using model::ValueArray;
  switch (dtype) {
    case DType::kBool: {
      std::vector<std::uint8_t> flags(bytes);
      for (std::uint8_t& f : flags) f = f != 0 ? 1 : 0;
      return ValueArray(dtype, std::move(flags), std::move(validity));
    }
    case DType::kUint8:
      return ValueArray(dtype, std::vector<std::uint8_t>(bytes), std::move(validity));
    case DType::kInt8:
      return ValueArray(dtype, Typed<std::int8_t>(bytes), std::move(validity));
    case DType::kInt16:
      return ValueArray(dtype, Typed<std::int16_t>(bytes), std::move(validity));
    case DType::kInt32:
    case DType::kEnum:
      return ValueArray(dtype, Typed<std::int32_t>(bytes), std::move(validity));
    case DType::kUint16:
      return ValueArray(dtype, Typed<std::uint16_t>(bytes), std::move(validity));
    case DType::kUint32:
      return ValueArray(dtype, Typed<std::uint32_t>(bytes), std::move(validity));
    case DType::kFloat32:
      return ValueArray(dtype, Typed<float>(bytes), std::move(validity));
    case DType::kFloat64:
      return ValueArray(dtype, Typed<double>(bytes), std::move(validity));
    case DType::kStr:
      break;
  }
  throw Error("zarr reader: dtype str has no Zarr storage");
}

}  // namespace

struct ZarrReader::OpenShard {
  fs::path file;
  std::shared_ptr<parquet::RandomAccessFile> input;
  std::vector<std::uint64_t> index;  // offset, nbytes per inner chunk (sharded only)
};

struct ZarrReader::OpenArray {
  std::string value_path;
  fs::path meta_file;
  zarr::ArrayMeta meta;
  std::int64_t step_elements = 1;  // elements per step (∏ shape[1:])
  std::map<std::int64_t, OpenShard> shards;
  // The inner chunks decoded last, most recent first: an inner chunk holds many signals' steps
  // (docs/format.md §8.3), and a scan in record order visits several of them in turn.
  std::list<std::pair<std::int64_t, std::vector<std::uint8_t>>> cache;
};

ZarrReader::ZarrReader(std::shared_ptr<parquet::DecodeBudget> budget,
                       std::shared_ptr<const parquet::FileOpener> opener)
    : budget_(std::move(budget)),
      opener_(opener ? std::move(opener) : parquet::LocalFileOpener()) {}
ZarrReader::~ZarrReader() { Clear(); }

void ZarrReader::Clear() {
  for (const auto& [file, array] : arrays_) {
    for (const auto& [index, bytes] : array->cache) Release(bytes.size());
  }
  arrays_.clear();
}

void ZarrReader::Release(std::uint64_t bytes) {
  if (budget_) budget_->Release(bytes);
}

bool ZarrReader::DropOneKeptChunk() {
  for (auto& [file, array] : arrays_) {
    if (array->cache.empty()) continue;
    Release(array->cache.back().second.size());
    array->cache.pop_back();
    return true;
  }
  return false;
}

void ZarrReader::Charge(std::uint64_t bytes, const OpenArray& array, const std::string& where) {
  if (!budget_) return;
  while (!budget_->TryCharge(bytes)) {
    if (DropOneKeptChunk()) continue;
    throw FormatError(ErrorSite{array.meta_file, "", where},
                      "the array's inner chunks decode to " + std::to_string(bytes) +
                          " bytes; the reader's decoded buffers hold " +
                          std::to_string(budget_->held()) + " bytes and may hold at most " +
                          std::to_string(budget_->limit()) +
                          " (its decode budget, ReaderOptions::decode_budget_bytes)");
  }
}

ZarrReader::OpenArray& ZarrReader::Array(const std::string& value_path,
                                         const ZarrResolve& resolve) {
  const fs::path meta_file = resolve(value_path + "/zarr.json");
  auto found = arrays_.find(meta_file);
  if (found != arrays_.end()) return *found->second;
  auto input = opener_->Open(meta_file);
  ++stats_.files_opened;
  const std::vector<std::byte> bytes = input->Read(0, input->size());
  auto array = std::make_unique<OpenArray>();
  array->value_path = value_path;
  array->meta_file = meta_file;
  array->meta = zarr::ParseArrayMeta(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), meta_file);
  for (std::size_t i = 1; i < array->meta.shape.size(); ++i) {
    array->step_elements *= array->meta.shape[i];
  }
  return *arrays_.emplace(meta_file, std::move(array)).first->second;
}

std::vector<std::uint8_t> ZarrReader::ReadBytes(OpenArray& array, std::int64_t start,
                                                std::int64_t n, const ZarrResolve& resolve) {
  const zarr::ArrayMeta& meta = array.meta;
  const std::int64_t item = meta.item_size;
  const std::int64_t step_bytes = array.step_elements * item;
  const std::int64_t chunk_steps = meta.ChunkSteps();
  const std::int64_t per_shard = meta.ChunksPerShard();
  const std::size_t chunk_bytes = static_cast<std::size_t>(meta.ChunkElements() * item);
  std::vector<std::uint8_t> out(static_cast<std::size_t>(n * step_bytes));
  std::vector<std::byte> frame;
  const std::int64_t first_chunk = start / chunk_steps;
  const std::int64_t last_chunk = n == 0 ? first_chunk - 1 : (start + n - 1) / chunk_steps;
  for (std::int64_t c = first_chunk; c <= last_chunk; ++c) {
    const std::int64_t chunk_first = c * chunk_steps;
    auto copy_out = [&](const std::vector<std::uint8_t>& decoded) {
      const std::int64_t from = std::max(start, chunk_first);
      const std::int64_t to = std::min(start + n, chunk_first + chunk_steps);
      std::memcpy(out.data() + (from - start) * step_bytes,
                  decoded.data() + (from - chunk_first) * step_bytes,
                  static_cast<std::size_t>((to - from) * step_bytes));
    };
    auto hit = std::find_if(array.cache.begin(), array.cache.end(),
                            [c](const auto& entry) { return entry.first == c; });
    if (hit != array.cache.end()) {
      array.cache.splice(array.cache.begin(), array.cache, hit);
      copy_out(array.cache.front().second);
      continue;
    }
    // Charged before it is allocated; the charge goes with it into the cache, or is released.
    Charge(chunk_bytes, array, "chunk " + std::to_string(c) + " of " + array.value_path);
    struct Charged {
      ZarrReader& reader;
      std::uint64_t bytes;
      ~Charged() { reader.Release(bytes); }
    } charged{*this, chunk_bytes};
    std::vector<std::uint8_t> decoded(chunk_bytes);
    const std::int64_t shard_index = c / per_shard;
    const std::int64_t inner = c % per_shard;
    auto [it, inserted] = array.shards.try_emplace(shard_index);
    OpenShard& shard = it->second;
    if (inserted) {
      try {
        shard.file = resolve(array.value_path + "/" + meta.ChunkKey(shard_index));
        shard.input = opener_->Open(shard.file);
      } catch (...) {
        array.shards.erase(it);
        throw;
      }
      ++stats_.files_opened;
      if (meta.sharded) {
        const std::uint64_t index_bytes = zarr::ShardIndexBytes(per_shard, meta.index_crc32c);
        const std::uint64_t size = shard.input->size();
        if (size < index_bytes) {
          const fs::path file = shard.file;
          array.shards.erase(it);
          throw FormatError(ErrorSite{file, "", "shard index"},
                            "the shard holds " + std::to_string(size) + " bytes, less than its " +
                                std::to_string(index_bytes) + "-byte index");
        }
        const std::uint64_t at = meta.index_at_end ? size - index_bytes : 0;
        const std::vector<std::byte> raw = shard.input->Read(at, index_bytes);
        try {
          shard.index = zarr::DecodeShardIndex(
              std::span(reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()), per_shard,
              meta.index_crc32c, shard.file);
        } catch (...) {
          array.shards.erase(it);
          throw;
        }
      }
    }
    const std::string where = "chunk " + std::to_string(c) + " of " + array.value_path;
    std::uint64_t offset = 0;
    std::uint64_t nbytes = shard.input->size();
    bool absent = false;
    if (meta.sharded) {
      offset = shard.index[static_cast<std::size_t>(inner) * 2];
      nbytes = shard.index[static_cast<std::size_t>(inner) * 2 + 1];
      absent = offset == zarr::kAbsent && nbytes == zarr::kAbsent;
    }
    if (absent) {
      for (std::size_t i = 0; i < chunk_bytes; i += static_cast<std::size_t>(item)) {
        std::memcpy(decoded.data() + i, meta.fill.data(), static_cast<std::size_t>(item));
      }
    } else {
      shard.input->CheckRange(offset, nbytes);
      frame.resize(static_cast<std::size_t>(nbytes));
      shard.input->ReadAt(offset, frame);
      std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(frame.data()),
                                          frame.size());
      if (meta.chunk_crc32c) bytes = zarr::StripChunkCrc32c(bytes, shard.file, where);
      if (meta.blosc) {
        zarr::BloscDecompress(bytes, decoded, shard.file, where);
      } else {
        if (bytes.size() != chunk_bytes) {
          throw FormatError(ErrorSite{shard.file, "", where},
                            "holds " + std::to_string(bytes.size()) + " bytes, expected " +
                                std::to_string(chunk_bytes));
        }
        std::memcpy(decoded.data(), bytes.data(), chunk_bytes);
      }
      if (meta.big_endian && item > 1) {
        for (std::size_t i = 0; i < chunk_bytes; i += static_cast<std::size_t>(item)) {
          std::reverse(decoded.begin() + static_cast<std::ptrdiff_t>(i),
                       decoded.begin() + static_cast<std::ptrdiff_t>(i) + item);
        }
      }
      ++stats_.inner_chunks_decoded;
    }
    copy_out(decoded);
    array.cache.emplace_front(c, std::move(decoded));
    charged.bytes = 0;  // the cache entry holds the charge now
    if (array.cache.size() > kCachedChunks) {
      Release(array.cache.back().second.size());
      array.cache.pop_back();
    }
  }
  return out;
}

model::ValueArray ZarrReader::Read(const std::string& value_path, std::int64_t start,
                                   std::int64_t n, const model::Spec& spec,
                                   const ZarrResolve& resolve) {
  OpenArray& array = Array(value_path, resolve);
  const zarr::ArrayMeta& meta = array.meta;
  auto fail = [&](const std::string& where, const std::string& problem) {
    throw FormatError(ErrorSite{array.meta_file, "", where},
                      problem + " (spec_type '" + spec.spec_type + "')");
  };
  const std::optional<std::string> want = zarr::DataTypeName(spec.dtype);
  if (!want || *want != meta.data_type) {
    fail("data_type", "is " + meta.data_type + ", the spec needs " + want.value_or("str"));
  }
  if (!std::equal(meta.shape.begin() + 1, meta.shape.end(), spec.value_shape.begin(),
                  spec.value_shape.end())) {
    fail("shape", "does not end in the spec's value_shape");
  }
  if (start < 0 || n < 0 || start + n > meta.shape[0]) {
    fail("shape", "steps [" + std::to_string(start) + ", " + std::to_string(start + n) +
                      ") lie outside the array's " + std::to_string(meta.shape[0]));
  }
  std::vector<std::uint8_t> bytes = ReadBytes(array, start, n, resolve);
  std::vector<std::uint8_t> validity;
  if (spec.nullable) {
    const std::string validity_path = zarr::ValidityPathOf(value_path);
    OpenArray& flags = Array(validity_path, resolve);
    if (flags.meta.data_type != "bool" || flags.meta.shape.size() != 1 ||
        flags.meta.shape[0] != meta.shape[0]) {
      throw FormatError(ErrorSite{flags.meta_file, "", "shape"},
                        "a validity array is bool [" + std::to_string(meta.shape[0]) + "]");
    }
    validity = ReadBytes(flags, start, n, resolve);
    bool any_null = false;
    for (std::uint8_t& v : validity) {
      v = v != 0 ? 1 : 0;
      any_null |= v == 0;
    }
    if (!any_null) validity.clear();
  }
  if (spec.dtype == model::DType::kEnum) {
    const auto categories = static_cast<std::int32_t>(spec.categories.size());
    for (std::int64_t i = 0; i < n * array.step_elements; ++i) {
      std::int32_t code = 0;
      std::memcpy(&code, bytes.data() + 4 * i, 4);
      const std::int64_t step = i / array.step_elements;
      const bool present = validity.empty() || validity[static_cast<std::size_t>(step)] != 0;
      if (present && (code < 0 || code >= categories)) {
        fail("values", "enum code " + std::to_string(code) + " at step " +
                           std::to_string(start + step) + " is outside the " +
                           std::to_string(categories) + " categories");
      }
    }
  }
  ++stats_.chunks_read;
  return ToArray(spec.dtype, bytes, std::move(validity));
}

}  // namespace timef::values
