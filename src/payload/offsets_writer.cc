// OffsetsPayloadWriter: one `offsets_us` list row per axis, assembled straight into the column's
// buffer and written as one row group when its bytes reach the row-group budget.
#include <bit>
#include <cstring>
#include <string>
#include <utility>

#include "parquet/column_data.h"
#include "payload/file_series.h"
#include "payload/payload_schema.h"
#include "payload/payload_writer.h"
#include "timef/error.h"

namespace timef::payload {
namespace {

void CheckOffsets(std::span<const std::int64_t> offsets) {
  if (offsets.empty()) {
    throw ValidationError(ErrorSite{std::nullopt, "offsets payload", "offsets_us"},
                          "an irregular axis needs at least one offset");
  }
  for (std::size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] < offsets[i - 1]) {
      throw ValidationError(
          ErrorSite{std::nullopt, "offsets payload", "offsets_us[" + std::to_string(i) + "]"},
          "offsets must be non-decreasing: " + std::to_string(offsets[i]) + " follows " +
              std::to_string(offsets[i - 1]));
    }
  }
}

}  // namespace

struct OffsetsPayloadWriter::Impl {
  Impl(std::filesystem::path release_dir, PayloadOptions options)
      : series(std::move(release_dir), "offsets", OffsetsFileSchema(), options,
               &OffsetsWriterOptions) {
    Reset();
  }

  void Reset() {
    column.Clear();
    column.physical_type = parquet::Type::kInt64;
    column.list_offsets.push_back(0);
  }

  void Flush() {
    if (column.num_rows == 0) return;
    const parquet::ColumnView views[] = {column.View()};
    series.WriteRowGroup(views);
    Reset();
  }

  PayloadFileSeries series;
  parquet::ColumnData column;
};

OffsetsPayloadWriter::OffsetsPayloadWriter(std::filesystem::path release_dir,
                                           PayloadOptions options)
    : impl_(std::make_unique<Impl>(std::move(release_dir), options)) {}

OffsetsPayloadWriter::~OffsetsPayloadWriter() = default;

OffsetsLocator OffsetsPayloadWriter::Add(std::span<const std::int64_t> offsets) {
  CheckOffsets(offsets);
  Impl& impl = *impl_;
  parquet::ColumnData& column = impl.column;
  OffsetsLocator location{std::nullopt, impl.series.current_name(),
                          impl.series.current_rows() + column.num_rows,
                          static_cast<std::int64_t>(offsets.size()), OffsetsDigest(offsets)};
  // The engine's slots are little-endian, so the host order can be copied as is.
  static_assert(std::endian::native == std::endian::little);
  const std::span<const std::byte> bytes = std::as_bytes(offsets);
  column.values.insert(column.values.end(), bytes.begin(), bytes.end());
  column.list_offsets.push_back(column.list_offsets.back() +
                                static_cast<std::int64_t>(offsets.size()));
  ++column.num_rows;
  if (static_cast<std::int64_t>(column.values.size()) >=
      impl.series.options().row_group_target_bytes) {
    impl.Flush();
  }
  return location;
}

std::vector<PayloadFile> OffsetsPayloadWriter::Finish() {
  impl_->Flush();
  return impl_->series.Finish();
}

}  // namespace timef::payload
