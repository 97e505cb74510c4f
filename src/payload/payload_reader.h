// Reads packed text and irregular offsets back from payload files (docs/format.md §9), checking
// each value on read (FormatError naming the text key or axis and the file): the non-null column
// matches the kind and the length matches; offsets count, digest, order and first/last match the
// axis. Files are opened on first use and kept open. Not thread-safe: one per reader per thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/locators.h"
#include "parquet/file_io.h"
#include "parquet/open_files.h"
#include "parquet/reader_column.h"

namespace timef::payload {

// A packed text value: its locator (core/locators.h; `file` is the catalog's value, named in
// messages) resolved to the file to open.
struct TextRef {
  std::filesystem::path file;  // to open
  TextLocator locator;
  std::int64_t text_key = 0;  // for messages
};

// An irregular axis's offsets: the locator (its `path` named in messages) resolved to the file to
// open, and what the axis says of them.
struct OffsetsRef {
  std::filesystem::path file;  // to open
  OffsetsLocator locator;
  std::int64_t first_us = 0;
  std::int64_t last_us = 0;
  std::string axis;  // e.g. "axis 3", for messages
};

struct PayloadReaderStats {
  std::uint64_t files_opened = 0;
  std::uint64_t values_read = 0;
  parquet::ReaderStats pages;
};

class PayloadReader {
 public:
  // Opens payload files through `opener` (null: local files, memory-mapped).
  explicit PayloadReader(std::shared_ptr<const parquet::FileOpener> opener = nullptr);
  ~PayloadReader();
  PayloadReader(const PayloadReader&) = delete;
  PayloadReader& operator=(const PayloadReader&) = delete;

  std::string ReadText(const TextRef& ref);
  std::vector<std::string> ReadTextList(const TextRef& ref);
  std::vector<std::int64_t> ReadOffsets(const OffsetsRef& ref);

  PayloadReaderStats stats() const;
  void Clear();

 private:
  struct OpenFile;
  OpenFile& File(const std::filesystem::path& file, const std::string& name);
  parquet::OpenFiles<OpenFile> files_;
  std::uint64_t values_read_ = 0;
};

}  // namespace timef::payload
