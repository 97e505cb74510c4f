#include "writer/audit_facts.h"

#include <string>

namespace timef::writer {
namespace {

std::vector<std::string> Paths(const std::vector<manifest::FilePart>& parts) {
  std::vector<std::string> out;
  out.reserve(parts.size());
  for (const manifest::FilePart& part : parts) out.push_back(part.path);
  return out;
}

}  // namespace

catalog::AuditFacts AuditFactsOf(const manifest::Manifest& m) {
  catalog::AuditFacts facts;
  facts.identity.dataset_id = m.dataset_id;
  facts.identity.dataset_version = m.metadata.dataset_version;
  facts.identity.parents = m.metadata.parents;
  facts.counts = m.counts;
  facts.schema = m.schema;
  facts.values_backend = std::string(manifest::ToString(m.values_backend));
  facts.own_time_series = Paths(m.files.time_series);
  facts.own_payloads = Paths(m.files.payloads);
  for (const auto& [ref, pins] : m.payload_sources) facts.payload_sources[ref] = Paths(pins);
  return facts;
}

}  // namespace timef::writer
