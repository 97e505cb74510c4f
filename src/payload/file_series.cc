#include "payload/file_series.h"

#include <cstdio>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "timef/error.h"

namespace timef::payload {

std::string PayloadFileName(const std::string& stem, std::int64_t number) {
  char digits[32];
  std::snprintf(digits, sizeof(digits), "%08lld", static_cast<long long>(number));
  return "payloads/" + stem + "-" + digits + ".parquet";
}

PayloadFileSeries::PayloadFileSeries(std::filesystem::path release_dir, std::string stem,
                                     std::vector<parquet::ColumnDescriptor> schema,
                                     PayloadOptions options, OptionsFor options_for)
    : release_dir_(std::move(release_dir)),
      stem_(std::move(stem)),
      schema_(std::move(schema)),
      options_(options),
      options_for_(options_for),
      current_name_(PayloadFileName(stem_, 0)) {
  // Rejects bad options now rather than at the first row group.
  (void)options_for_(options_, current_name_);
}

PayloadFileSeries::~PayloadFileSeries() = default;

std::int64_t PayloadFileSeries::current_rows() const { return writer_ ? writer_->num_rows() : 0; }

void PayloadFileSeries::CheckUsable() const {
  if (failed_) throw std::logic_error("payload writer used after a failed write");
  if (finished_) throw std::logic_error("payload writer used after Finish");
}

void PayloadFileSeries::Open() {
  const std::filesystem::path path = release_dir_ / current_name_;
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error) {
    throw FileError(ErrorSite{path.parent_path(), "", ""},
                    "cannot create directory: " + error.message(), error);
  }
  stream_ = std::make_unique<parquet::FileOutputStream>(
      path, parquet::FileOutputOptions{.fsync_on_close = true, .exclusive = true});
  writer_ = std::make_unique<parquet::FileWriter>(*stream_, schema_,
                                                  options_for_(options_, path.string()));
}

void PayloadFileSeries::WriteRowGroup(std::span<const parquet::ColumnView> columns) {
  CheckUsable();
  try {
    if (!writer_) Open();
    for (std::size_t i = 0; i < columns.size(); ++i) writer_->WriteColumn(i, columns[i]);
    writer_->FlushRowGroup();
    if (static_cast<std::int64_t>(stream_->position()) >= options_.shard_target_bytes) {
      CloseCurrent();
    }
  } catch (...) {
    failed_ = true;
    throw;
  }
}

void PayloadFileSeries::CloseCurrent() {
  writer_->Close();
  stream_->Close();
  written_.push_back(PayloadFile{current_name_, static_cast<std::int64_t>(stream_->position()),
                                 writer_->num_rows()});
  writer_.reset();
  stream_.reset();
  current_name_ = PayloadFileName(stem_, ++next_number_);
}

std::vector<PayloadFile> PayloadFileSeries::Finish() {
  if (finished_) return written_;
  CheckUsable();
  try {
    if (writer_) CloseCurrent();
  } catch (...) {
    failed_ = true;
    throw;
  }
  finished_ = true;
  return written_;
}

}  // namespace timef::payload
