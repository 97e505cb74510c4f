// A numbered series of payload files `payloads/<stem>-NNNNNNNN.parquet` under a release directory:
// opens the current file on its first row group, writes row groups the caller assembled, and closes
// (fsyncs) the file once its bytes reach the shard budget, so the next row group starts the next
// number at row 0. A failure while writing leaves the series unusable (std::logic_error after).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "parquet/column_data.h"
#include "parquet/file_io.h"
#include "parquet/file_writer.h"
#include "parquet/schema.h"
#include "parquet/writer_options.h"
#include "payload/payload_options.h"

namespace timef::payload {

// "payloads/<stem>-NNNNNNNN.parquet".
std::string PayloadFileName(const std::string& stem, std::int64_t number);

class PayloadFileSeries {
 public:
  using OptionsFor = parquet::WriterOptions (*)(const PayloadOptions&, std::string name);

  PayloadFileSeries(std::filesystem::path release_dir, std::string stem,
                    std::vector<parquet::ColumnDescriptor> schema, PayloadOptions options,
                    OptionsFor options_for);
  ~PayloadFileSeries();
  PayloadFileSeries(const PayloadFileSeries&) = delete;
  PayloadFileSeries& operator=(const PayloadFileSeries&) = delete;

  const PayloadOptions& options() const { return options_; }
  // The release-relative name of the file the next row group goes to.
  const std::string& current_name() const { return current_name_; }
  // Rows already written to that file.
  std::int64_t current_rows() const;

  // Writes one row group (one view per schema column, equal row counts) to the current file.
  void WriteRowGroup(std::span<const parquet::ColumnView> columns);
  // Closes the open file, if any, and returns every file written in order.
  std::vector<PayloadFile> Finish();

 private:
  void Open();
  void CloseCurrent();
  void CheckUsable() const;

  std::filesystem::path release_dir_;
  std::string stem_;
  std::vector<parquet::ColumnDescriptor> schema_;
  PayloadOptions options_;
  OptionsFor options_for_;
  std::int64_t next_number_ = 0;
  std::string current_name_;
  // The stream outlives the writer that refers to it.
  std::unique_ptr<parquet::FileOutputStream> stream_;
  std::unique_ptr<parquet::FileWriter> writer_;
  std::vector<PayloadFile> written_;
  bool failed_ = false;
  bool finished_ = false;
};

}  // namespace timef::payload
