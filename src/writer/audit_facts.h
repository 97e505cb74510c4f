// The facts the catalog audit (catalog/audit/audit.h) checks a staged control.duckdb against, taken
// from the manifest that will be published: identity, counts, schema, own files lists, payload
// source pins. What the audit passes is therefore what the manifest says, not a second derivation
// from the model.
#pragma once

#include "catalog/audit/audit.h"
#include "timef/manifest.h"

namespace timef::writer {

// Checksums and sizes are not read: the facts can be taken before the files are hashed.
catalog::AuditFacts AuditFactsOf(const manifest::Manifest& manifest);

}  // namespace timef::writer
