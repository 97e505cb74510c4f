// Checks WriteOptions and maps them onto the values and payload modules' options: the file-series
// options both planes share (parquet::FileSeriesOptions, which payload::PayloadOptions is) are
// filled in one place, ToPayloadOptions, which ToValuesOptions extends.
#pragma once

#include "payload/payload_options.h"
#include "timef/writer.h"
#include "values/values_options.h"

namespace timef::writer {

// ValidationError naming the option for anything out of range (before the disk is touched).
// `card_choice` is the card's metadata.value_encoding; the option wins over it.
values::ValuesOptions ToValuesOptions(const WriteOptions& options,
                                      std::optional<manifest::ValueEncodingChoice> card_choice);
// ValidationError naming `compression` for a codec the writer does not offer.
payload::PayloadOptions ToPayloadOptions(const WriteOptions& options);

}  // namespace timef::writer
