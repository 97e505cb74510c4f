// Checks WriteOptions and maps them onto the values and payload modules' options.
#pragma once

#include "payload/payload_options.h"
#include "timef/writer.h"
#include "values/values_options.h"

namespace timef::writer {

// ValidationError naming the option for anything out of range (before the disk is touched).
// `card_choice` is the card's metadata.value_encoding; the option wins over it.
values::ValuesOptions ToValuesOptions(const WriteOptions& options,
                                      std::optional<manifest::ValueEncodingChoice> card_choice);
payload::PayloadOptions ToPayloadOptions(const WriteOptions& options);

}  // namespace timef::writer
