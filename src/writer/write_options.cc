#include "writer/write_options.h"

#include "timef/error.h"

namespace timef::writer {
namespace {

parquet::CompressionCodec Codec(const WriteOptions& options) {
  if (options.compression == "zstd") return parquet::CompressionCodec::kZstd;
  if (options.compression == "uncompressed") return parquet::CompressionCodec::kUncompressed;
  throw ValidationError(
      {.object = "WriteOptions", .where = "compression"},
      "unsupported codec '" + options.compression + "' (the writer offers zstd and uncompressed)");
}

}  // namespace

values::ValuesOptions ToValuesOptions(const WriteOptions& options,
                                      std::optional<manifest::ValueEncodingChoice> card_choice) {
  if (const std::int64_t v = options.text_pack_threshold_bytes;
      !write_option::text_pack_threshold_bytes.Contains(v)) {
    throw ValidationError({.object = "WriteOptions", .where = "text_pack_threshold_bytes"},
                          write_option::text_pack_threshold_bytes.Problem(v));
  }
  values::ValuesOptions out;
  static_cast<parquet::FileSeriesOptions&>(out) = ToPayloadOptions(options);
  out.chunk_max_bytes = options.chunk_max_bytes;
  out.compression_threads = options.threads;
  out.value_encoding =
      options.value_encoding.value_or(card_choice.value_or(manifest::ValueEncodingChoice::kAuto));
  out.value_encoding_by_spec = options.value_encoding_by_spec;
  out.backend = options.values_backend;
  out.zarr_compression_level = options.zarr_compression_level;
  values::ValidateValuesOptions(out);
  return out;
}

payload::PayloadOptions ToPayloadOptions(const WriteOptions& options) {
  return parquet::FileSeriesOptions{.row_group_target_bytes = options.row_group_target_bytes,
                                    .shard_target_bytes = options.shard_target_bytes,
                                    .data_page_target_bytes = options.data_page_target_bytes,
                                    .compression = Codec(options),
                                    .compression_level = options.compression_level};
}

}  // namespace timef::writer
