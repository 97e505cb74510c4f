#include "values/zarr_store.h"

#include <blosc.h>
#include <isa-l/crc.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/json_forms.h"
#include "timef/error.h"

namespace timef::values::zarr {
namespace {

bool Unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

[[noreturn]] void Bad(const std::filesystem::path& file, const std::string& where,
                      const std::string& problem) {
  throw FormatError(ErrorSite{file, "", where}, problem + " (docs/format.md §8.5)");
}

std::vector<std::int64_t> Shape(const Json& value, const std::filesystem::path& file,
                                const std::string& where, bool positive) {
  if (!value.is_array()) Bad(file, where, "must be an array of integers");
  std::vector<std::int64_t> out;
  for (const Json& v : value) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < (positive ? 1 : 0)) {
      Bad(file, where, positive ? "entries must be integers ≥ 1" : "entries must be integers ≥ 0");
    }
    out.push_back(v.get<std::int64_t>());
  }
  return out;
}

const Json& Member(const Json& object, const char* key, const std::filesystem::path& file,
                   const std::string& where) {
  if (!object.is_object() || !object.contains(key))
    Bad(file, where, "missing '" + std::string(key) + "'");
  return object.at(key);
}

std::string Name(const Json& codec, const std::filesystem::path& file, const std::string& where) {
  const Json& name = Member(codec, "name", file, where);
  if (!name.is_string()) Bad(file, where + "/name", "must be a string");
  return name.get<std::string>();
}

// `bytes` codec: little or big endian (a one-byte type may omit it).
bool BigEndian(const Json& codec, const std::filesystem::path& file, const std::string& where) {
  if (!codec.contains("configuration")) return false;
  const Json& config = codec.at("configuration");
  if (!config.contains("endian")) return false;
  const Json& endian = config.at("endian");
  if (endian == "little") return false;
  if (endian == "big") return true;
  Bad(file, where + "/configuration/endian", "must be 'little' or 'big'");
}

// Chunk codecs: `bytes`, then optionally `blosc`.
void ChunkCodecs(const Json& codecs, ArrayMeta& meta, const std::filesystem::path& file,
                 const std::string& where) {
  if (!codecs.is_array() || codecs.empty() || codecs.size() > 3) {
    Bad(file, where, "must be [bytes], then optionally blosc, then optionally crc32c");
  }
  if (Name(codecs[0], file, where + "/0") != "bytes") Bad(file, where + "/0", "must be 'bytes'");
  meta.big_endian = BigEndian(codecs[0], file, where + "/0");
  // A trailing crc32c guards each (compressed) chunk: a flipped bit in a blosc frame would
  // otherwise decode to wrong values (docs/format.md §8.5).
  std::size_t last = codecs.size();
  if (last >= 2 &&
      Name(codecs[last - 1], file, where + "/" + std::to_string(last - 1)) == "crc32c") {
    meta.chunk_crc32c = true;
    --last;
  }
  if (last == 2) {
    if (Name(codecs[1], file, where + "/1") != "blosc") {
      Bad(file, where + "/1", "unsupported codec '" + Name(codecs[1], file, where + "/1") + "'");
    }
    meta.blosc = true;
  } else if (last > 2) {
    Bad(file, where, "must be [bytes], then optionally blosc, then optionally crc32c");
  }
}

template <class T>
void PutFill(T value, std::vector<std::uint8_t>& out) {
  out.resize(sizeof(T));
  std::memcpy(out.data(), &value, sizeof(T));
}

std::vector<std::uint8_t> FillBytes(const Json& fill, const std::string& data_type,
                                    const std::filesystem::path& file) {
  std::vector<std::uint8_t> out;
  auto bad = [&]() { Bad(file, "fill_value", "does not fit data_type " + data_type); };
  if (data_type == "bool") {
    if (!fill.is_boolean()) bad();
    out.push_back(fill.get<bool>() ? 1 : 0);
    return out;
  }
  if (data_type == "float32" || data_type == "float64") {
    double value = 0;
    if (fill.is_number()) {
      value = fill.get<double>();
    } else if (fill == "NaN") {
      value = std::numeric_limits<double>::quiet_NaN();
    } else if (fill == "Infinity") {
      value = std::numeric_limits<double>::infinity();
    } else if (fill == "-Infinity") {
      value = -std::numeric_limits<double>::infinity();
    } else if (fill.is_string() && fill.get<std::string>().starts_with("0x")) {
      const std::uint64_t bits = std::stoull(fill.get<std::string>().substr(2), nullptr, 16);
      if (data_type == "float32") {
        PutFill(static_cast<std::uint32_t>(bits), out);
      } else {
        PutFill(bits, out);
      }
      return out;
    } else {
      bad();
    }
    if (data_type == "float32") {
      PutFill(static_cast<float>(value), out);
    } else {
      PutFill(value, out);
    }
    return out;
  }
  if (!fill.is_number_integer()) bad();
  const auto v = fill.get<std::int64_t>();
  if (data_type == "int8") PutFill(static_cast<std::int8_t>(v), out);
  if (data_type == "int16") PutFill(static_cast<std::int16_t>(v), out);
  if (data_type == "int32") PutFill(static_cast<std::int32_t>(v), out);
  if (data_type == "uint8") PutFill(static_cast<std::uint8_t>(v), out);
  if (data_type == "uint16") PutFill(static_cast<std::uint16_t>(v), out);
  if (data_type == "uint32") PutFill(static_cast<std::uint32_t>(v), out);
  if (out.empty()) bad();
  return out;
}

Json BytesCodec() { return Json{{"name", "bytes"}, {"configuration", {{"endian", "little"}}}}; }

}  // namespace

std::string EncodeArrayName(std::string_view spec_type) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : spec_type) {
    if (Unreserved(c)) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string ValuesArrayPath(std::string_view spec_type) {
  return std::string(kStorePrefix) + EncodeArrayName(spec_type);
}

std::string ValidityArrayPath(std::string_view spec_type) {
  return std::string(kStorePrefix) + std::string(kValidityGroup) + "/" + EncodeArrayName(spec_type);
}

std::string ValidityPathOf(std::string_view values_array_path) {
  std::string_view name = values_array_path.substr(kStorePrefix.size());
  return std::string(kStorePrefix) + std::string(kValidityGroup) + "/" + std::string(name);
}

std::optional<std::string> DataTypeName(model::DType dtype) {
  if (dtype == model::DType::kStr) return std::nullopt;
  if (dtype == model::DType::kEnum) return "int32";
  return std::string(model::ToString(dtype));
}

int ItemSize(std::string_view t) {
  if (t == "bool" || t == "int8" || t == "uint8") return 1;
  if (t == "int16" || t == "uint16") return 2;
  if (t == "int32" || t == "uint32" || t == "float32") return 4;
  if (t == "float64") return 8;
  return 0;
}

std::int64_t ArrayMeta::ChunkElements() const {
  std::int64_t n = 1;
  for (std::int64_t d : sharded ? inner_shape : chunk_shape) n *= d;
  return n;
}

std::int64_t ArrayMeta::ChunksPerShard() const {
  if (!sharded) return 1;
  std::int64_t n = 1;
  for (std::size_t i = 0; i < chunk_shape.size(); ++i) n *= chunk_shape[i] / inner_shape[i];
  return n;
}

std::string ArrayMeta::ChunkKey(std::int64_t index) const {
  std::string key = "c";
  key += separator;
  key += std::to_string(index);
  for (std::size_t i = 1; i < shape.size(); ++i) {
    key += separator;
    key += '0';
  }
  return key;
}

ArrayMeta ParseArrayMeta(std::string_view text, const std::filesystem::path& file) {
  std::string problem;
  std::optional<Json> parsed = ParseJsonStrict(text, &problem);
  if (!parsed) Bad(file, "", "not valid JSON: " + problem);
  const Json& j = *parsed;
  if (!j.is_object()) Bad(file, "", "must be a JSON object");
  if (Member(j, "zarr_format", file, "") != 3) Bad(file, "zarr_format", "must be 3");
  if (Member(j, "node_type", file, "") != "array") Bad(file, "node_type", "must be 'array'");
  ArrayMeta meta;
  meta.shape = Shape(Member(j, "shape", file, ""), file, "shape", false);
  if (meta.shape.empty()) Bad(file, "shape", "must have at least one dimension (the steps)");
  const Json& data_type = Member(j, "data_type", file, "");
  if (!data_type.is_string() || ItemSize(data_type.get<std::string>()) == 0) {
    Bad(file, "data_type", "unsupported data_type " + data_type.dump());
  }
  meta.data_type = data_type.get<std::string>();
  meta.item_size = ItemSize(meta.data_type);
  const Json& grid = Member(j, "chunk_grid", file, "");
  if (Name(grid, file, "chunk_grid") != "regular")
    Bad(file, "chunk_grid/name", "must be 'regular'");
  meta.chunk_shape = Shape(Member(Member(grid, "configuration", file, "chunk_grid"), "chunk_shape",
                                  file, "chunk_grid/configuration"),
                           file, "chunk_grid/configuration/chunk_shape", true);
  if (meta.chunk_shape.size() != meta.shape.size()) {
    Bad(file, "chunk_grid/configuration/chunk_shape", "must have one entry per dimension");
  }
  for (std::size_t i = 1; i < meta.shape.size(); ++i) {
    if (meta.chunk_shape[i] != meta.shape[i]) {
      Bad(file, "chunk_grid/configuration/chunk_shape",
          "must span every dimension after the first (chunked along the steps only)");
    }
  }
  if (j.contains("chunk_key_encoding")) {
    const Json& keys = j.at("chunk_key_encoding");
    if (Name(keys, file, "chunk_key_encoding") != "default") {
      Bad(file, "chunk_key_encoding/name", "must be 'default'");
    }
    if (keys.contains("configuration") && keys.at("configuration").contains("separator")) {
      const Json& sep = keys.at("configuration").at("separator");
      if (sep == "/") {
        meta.separator = '/';
      } else if (sep == ".") {
        meta.separator = '.';
      } else {
        Bad(file, "chunk_key_encoding/configuration/separator", "must be '/' or '.'");
      }
    }
  }
  meta.fill = FillBytes(Member(j, "fill_value", file, ""), meta.data_type, file);
  const Json& codecs = Member(j, "codecs", file, "");
  if (!codecs.is_array() || codecs.empty()) Bad(file, "codecs", "must be a non-empty array");
  if (Name(codecs[0], file, "codecs/0") == "sharding_indexed") {
    if (codecs.size() != 1) Bad(file, "codecs", "sharding_indexed must be the only codec");
    meta.sharded = true;
    const Json& config = Member(codecs[0], "configuration", file, "codecs/0");
    const std::string where = "codecs/0/configuration";
    meta.inner_shape =
        Shape(Member(config, "chunk_shape", file, where), file, where + "/chunk_shape", true);
    if (meta.inner_shape.size() != meta.shape.size()) {
      Bad(file, where + "/chunk_shape", "must have one entry per dimension");
    }
    for (std::size_t i = 0; i < meta.shape.size(); ++i) {
      if (meta.chunk_shape[i] % meta.inner_shape[i] != 0 ||
          (i > 0 && meta.inner_shape[i] != meta.shape[i])) {
        Bad(file, where + "/chunk_shape",
            "must divide the shard shape and span every dimension after the first");
      }
    }
    ChunkCodecs(Member(config, "codecs", file, where), meta, file, where + "/codecs");
    const Json& index = Member(config, "index_codecs", file, where);
    if (!index.is_array() || index.empty() || index.size() > 2 ||
        Name(index[0], file, where + "/index_codecs/0") != "bytes" ||
        BigEndian(index[0], file, where + "/index_codecs/0") ||
        (index.size() == 2 && Name(index[1], file, where + "/index_codecs/1") != "crc32c")) {
      Bad(file, where + "/index_codecs", "must be [bytes little] or [bytes little, crc32c]");
    }
    meta.index_crc32c = index.size() == 2;
    if (config.contains("index_location")) {
      const Json& location = config.at("index_location");
      if (location != "end" && location != "start") {
        Bad(file, where + "/index_location", "must be 'end' or 'start'");
      }
      meta.index_at_end = location == "end";
    }
  } else {
    ChunkCodecs(codecs, meta, file, "codecs");
  }
  // Bounds before anything is allocated from these numbers: a decoded chunk of at most 1 GiB, a
  // shard index of at most 2^24 entries, and no product that overflows int64.
  {
    constexpr std::int64_t kMaxChunkBytes = std::int64_t{1} << 30;
    std::int64_t bytes = meta.item_size;
    for (std::int64_t d : meta.sharded ? meta.inner_shape : meta.chunk_shape) {
      if (d > kMaxChunkBytes / bytes) Bad(file, "codecs", "a chunk would exceed 1 GiB");
      bytes *= d;
    }
    std::int64_t per_shard = 1;
    for (std::size_t i = 0; meta.sharded && i < meta.shape.size(); ++i) {
      const std::int64_t n = meta.chunk_shape[i] / meta.inner_shape[i];
      if (n > (std::int64_t{1} << 24) / per_shard) {
        Bad(file, "codecs/0/configuration/chunk_shape", "more than 2^24 inner chunks per shard");
      }
      per_shard *= n;
    }
    std::int64_t elements = 1;
    for (std::int64_t d : meta.shape) {
      if (d != 0 && elements > std::numeric_limits<std::int64_t>::max() / 8 / d) {
        Bad(file, "shape", "too large");
      }
      elements *= d;
    }
  }
  if (j.contains("dimension_names") && !j.at("dimension_names").is_null()) {
    const Json& names = j.at("dimension_names");
    if (!names.is_array() || names.size() != meta.shape.size()) {
      Bad(file, "dimension_names", "must name every dimension");
    }
    for (const Json& n : names)
      meta.dimension_names.push_back(n.is_string() ? n.get<std::string>() : "");
  }
  return meta;
}

ArrayLayout SizedLayout(std::int64_t bytes_per_step, std::int64_t chunk_max_bytes,
                        std::int64_t shard_target_bytes) {
  ArrayLayout layout;
  const std::int64_t step = std::max<std::int64_t>(1, bytes_per_step);
  layout.chunk_len = std::max<std::int64_t>(1, chunk_max_bytes / step);
  layout.shard_len =
      std::max<std::int64_t>(1, (shard_target_bytes / step) / layout.chunk_len) * layout.chunk_len;
  return layout;
}

Json ArrayMetaJson(const ArrayLayout& layout) {
  Json shape = Json::array({layout.total_steps});
  Json outer = Json::array({layout.shard_len});
  Json inner = Json::array({layout.chunk_len});
  for (std::int64_t d : layout.value_shape) {
    shape.push_back(d);
    outer.push_back(d);
    inner.push_back(d);
  }
  Json blosc = {{"name", "blosc"},
                {"configuration",
                 {{"cname", "zstd"},
                  {"clevel", layout.clevel},
                  {"shuffle", "bitshuffle"},
                  {"typesize", layout.item_size},
                  {"blocksize", 0}}}};
  Json sharding = {{"name", "sharding_indexed"},
                   {"configuration",
                    {{"chunk_shape", inner},
                     {"codecs", Json::array({BytesCodec(), blosc})},
                     {"index_codecs", Json::array({BytesCodec(), Json{{"name", "crc32c"}}})},
                     {"index_location", "end"}}}};
  Json j = {{"zarr_format", 3},
            {"node_type", "array"},
            {"shape", shape},
            {"data_type", layout.data_type},
            {"chunk_grid", {{"name", "regular"}, {"configuration", {{"chunk_shape", outer}}}}},
            {"chunk_key_encoding", {{"name", "default"}, {"configuration", {{"separator", "/"}}}}},
            {"fill_value", layout.data_type == "bool" ? Json(false) : Json(0)},
            {"codecs", Json::array({sharding})},
            {"attributes", Json::object()}};
  if (!layout.dimension_names.empty()) {
    Json names = Json::array({"step"});
    for (const std::string& n : layout.dimension_names) names.push_back(n);
    j["dimension_names"] = names;
  }
  return j;
}

Json GroupMetaJson() {
  return Json{{"zarr_format", 3}, {"node_type", "group"}, {"attributes", Json::object()}};
}

std::span<const std::uint8_t> StripChunkCrc32c(std::span<const std::uint8_t> stored,
                                               const std::filesystem::path& file,
                                               const std::string& where) {
  if (stored.size() < 4) {
    throw FormatError(ErrorSite{file, "", where},
                      "holds " + std::to_string(stored.size()) + " bytes, less than its CRC-32C");
  }
  const std::span<const std::uint8_t> body = stored.first(stored.size() - 4);
  const std::uint8_t* p = stored.data() + body.size();
  const std::uint32_t want =
      static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
      static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
  const std::uint32_t got = Crc32c(body);
  if (want != got) {
    throw FormatError(ErrorSite{file, "", where}, "CRC-32C mismatch (stored " +
                                                      std::to_string(want) + ", computed " +
                                                      std::to_string(got) + ")");
  }
  return body;
}

std::uint64_t ShardIndexBytes(std::int64_t chunks, bool crc32c) {
  // Saturates: an index that large never fits a shard file, which the caller checks.
  constexpr std::int64_t kMaxChunks = std::int64_t{1} << 58;
  const std::uint64_t n =
      static_cast<std::uint64_t>(std::clamp<std::int64_t>(chunks, 0, kMaxChunks));
  return n * 16 + (crc32c ? 4 : 0);
}

std::vector<std::uint64_t> DecodeShardIndex(std::span<const std::uint8_t> raw, std::int64_t chunks,
                                            bool crc32c, const std::filesystem::path& file) {
  const std::uint64_t want_bytes = ShardIndexBytes(chunks, crc32c);
  if (chunks < 0 || raw.size() != want_bytes) {
    throw FormatError(ErrorSite{file, "", "shard index"},
                      "holds " + std::to_string(raw.size()) + " bytes, expected " +
                          std::to_string(want_bytes) + " for " + std::to_string(chunks) +
                          " inner chunks");
  }
  auto load = [&](std::size_t at, int bytes) {
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | raw[at + static_cast<std::size_t>(i)];
    return v;
  };
  const std::size_t entries = static_cast<std::size_t>(chunks) * 2;
  if (crc32c) {
    const auto want = static_cast<std::uint32_t>(load(entries * 8, 4));
    const std::uint32_t got = Crc32c(raw.first(entries * 8));
    if (want != got) {
      throw FormatError(ErrorSite{file, "", "shard index"},
                        "CRC-32C mismatch (stored " + std::to_string(want) + ", computed " +
                            std::to_string(got) + ")");
    }
  }
  std::vector<std::uint64_t> index(entries);
  for (std::size_t i = 0; i < entries; ++i) index[i] = load(8 * i, 8);
  return index;
}

std::uint32_t Crc32c(std::span<const std::uint8_t> bytes) {
  // crc32_iscsi takes an int length: fold longer inputs (shard indexes are far smaller).
  std::uint32_t crc = 0xFFFFFFFFu;
  std::size_t done = 0;
  while (done < bytes.size()) {
    const std::size_t n =
        std::min<std::size_t>(bytes.size() - done, std::numeric_limits<int>::max() / 2);
    crc = crc32_iscsi(const_cast<unsigned char*>(bytes.data() + done), static_cast<int>(n), crc);
    done += n;
  }
  return ~crc;
}

std::vector<std::uint8_t> BloscCompress(std::span<const std::uint8_t> bytes, int typesize,
                                        int clevel, const char* cname) {
  std::vector<std::uint8_t> out(bytes.size() + BLOSC_MAX_OVERHEAD);
  const int n = blosc_compress_ctx(clevel, BLOSC_BITSHUFFLE, static_cast<std::size_t>(typesize),
                                   bytes.size(), bytes.data(), out.data(), out.size(), cname, 0, 1);
  if (n <= 0) {
    throw Error("blosc compression failed (code " + std::to_string(n) + ")");
  }
  out.resize(static_cast<std::size_t>(n));
  return out;
}

void BloscDecompress(std::span<const std::uint8_t> frame, std::span<std::uint8_t> out,
                     const std::filesystem::path& file, const std::string& where) {
  std::size_t nbytes = 0;
  if (frame.size() < BLOSC_MIN_HEADER_LENGTH ||
      blosc_cbuffer_validate(frame.data(), frame.size(), &nbytes) != 0) {
    throw FormatError(ErrorSite{file, "", where}, "not a valid blosc frame");
  }
  if (nbytes != out.size()) {
    throw FormatError(ErrorSite{file, "", where}, "blosc frame holds " + std::to_string(nbytes) +
                                                      " bytes, expected " +
                                                      std::to_string(out.size()));
  }
  const int n = blosc_decompress_ctx(frame.data(), out.data(), out.size(), 1);
  if (n < 0 || static_cast<std::size_t>(n) != out.size()) {
    throw FormatError(ErrorSite{file, "", where}, "blosc decompression failed (code " +
                                                      std::to_string(n) +
                                                      "; the codec may be unknown to blosc)");
  }
}

}  // namespace timef::values::zarr
