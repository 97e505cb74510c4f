// The whole public API of timef in one include: the model, the manifest, the writer, the reader and
// their vocabulary, errors and helpers. Each header also compiles on its own.
#pragma once

#include "timef/arrow_table.h"
#include "timef/compose.h"
#include "timef/demo.h"
#include "timef/error.h"
#include "timef/ids.h"
#include "timef/importers.h"
#include "timef/json.h"
#include "timef/legacy.h"
#include "timef/manifest.h"
#include "timef/model.h"
#include "timef/reader.h"
#include "timef/registry.h"
#include "timef/remote.h"
#include "timef/units.h"
#include "timef/upgrade.h"
#include "timef/value_pages.h"
#include "timef/version.h"
#include "timef/vocabulary.h"
#include "timef/writer.h"
