// Which value encodings fit which physical types: the one table behind the reader's check of a
// page's encoding and the writer's check of its column options.
#pragma once

#include "parquet/metadata.h"

namespace timef::parquet {

// The combinations the Parquet format defines and this engine decodes: PLAIN for every type,
// dictionary encodings for all but BOOLEAN, RLE for BOOLEAN, DELTA_BINARY_PACKED for INT32/INT64,
// the delta byte-array encodings for BYTE_ARRAY (and FIXED_LEN_BYTE_ARRAY for DELTA_BYTE_ARRAY),
// BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY.
bool ReaderDecodes(Encoding encoding, Type type);

// The subset the writer produces: no PLAIN_DICTIONARY (deprecated; RLE_DICTIONARY replaces it)
// and BYTE_STREAM_SPLIT only for FLOAT and DOUBLE (the only types it has an encoder for).
bool WriterEncodes(Encoding encoding, Type type);

}  // namespace timef::parquet
