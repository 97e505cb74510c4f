// Helpers of the values-plane tests: scratch directories, specs, inputs with counting loaders,
// and footer inspection.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "parquet/file_reader.h"
#include "support/scratch_dir.h"
#include "timef/model.h"
#include "values/chunk_reader.h"
#include "values/values_writer.h"

namespace timef::values::testing {

using ::timef::testing::ScratchDir;

// A spec named after its spec_type; `shape` and `dims` make it N-D (Zarr only).
inline std::shared_ptr<const model::Spec> MakeNdSpec(std::string spec_type, model::DType dtype,
                                                     bool nullable = false,
                                                     std::vector<std::int64_t> shape = {},
                                                     std::vector<std::string> dims = {},
                                                     std::vector<std::string> categories = {}) {
  model::Spec spec;
  spec.spec_type = std::move(spec_type);
  spec.name = spec.spec_type;
  spec.dtype = dtype;
  spec.nullable = nullable;
  spec.value_shape = std::move(shape);
  spec.dimension_names = std::move(dims);
  spec.categories = std::move(categories);
  return std::make_shared<const model::Spec>(std::move(spec));
}

inline std::shared_ptr<const model::Spec> MakeSpec(std::string spec_type, model::DType dtype,
                                                   bool nullable = false,
                                                   std::vector<std::string> categories = {}) {
  return MakeNdSpec(std::move(spec_type), dtype, nullable, {}, {}, std::move(categories));
}

// An input whose loader returns `values` and counts its calls in `*calls` (when given).
inline SignalInput MakeInput(std::int64_t signal_id, std::string name,
                             std::shared_ptr<const model::Spec> spec, model::ValueArray values,
                             std::shared_ptr<std::atomic<int>> calls = nullptr) {
  SignalInput input;
  input.signal_id = signal_id;
  input.name = std::move(name);
  input.spec = std::move(spec);
  input.n_values = values.size();
  auto held = std::make_shared<const model::ValueArray>(std::move(values));
  input.load = [held, calls]() {
    if (calls != nullptr) ++*calls;
    return held;
  };
  return input;
}

// Reads every chunk of `signal_id` back and concatenates them.
inline model::ValueArray ReadSignal(ChunkReader& reader, const std::filesystem::path& release,
                                    const ValuesResult& result, std::int64_t signal_id,
                                    const model::Spec& spec) {
  std::vector<model::ValueArray> parts;
  for (const ChunkLocator& placement : result.chunks.at(signal_id)) {
    parts.push_back(reader.Read(ChunkRef{release / placement.value_path, placement}, spec));
  }
  return ConcatValues(spec.dtype, parts);
}

// The encodings listed for the `values` leaf in every row group of a shard's footer.
inline std::vector<std::vector<parquet::Encoding>> ValuesEncodings(
    const std::filesystem::path& shard) {
  parquet::FileReader reader = parquet::FileReader::OpenFile(shard);
  const int column = reader.ColumnIndex("values");
  std::vector<std::vector<parquet::Encoding>> out;
  for (int g = 0; g < reader.num_row_groups(); ++g) {
    out.push_back(reader.column_chunk(g, column).meta_data->encodings);
  }
  return out;
}

inline bool HasEncoding(const std::vector<parquet::Encoding>& list, parquet::Encoding encoding) {
  for (parquet::Encoding e : list) {
    if (e == encoding) return true;
  }
  return false;
}

}  // namespace timef::values::testing
