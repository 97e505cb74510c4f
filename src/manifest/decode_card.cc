#include "manifest/decode.h"
#include "manifest/json_fields.h"

namespace timef::manifest::internal {
namespace {

ParentRelease DecodeParent(const Json& value, const std::string& pointer, Problems& problems) {
  ParentRelease parent;
  if (!ExpectObject(value, pointer, problems)) return parent;
  Fields fields(value, pointer, problems);
  // Unlike the card around it, a parent entry is exactly these keys.
  fields.RejectUnknown({"alias", "dataset_id", "version"});
  fields.String("alias", true, &parent.alias);
  fields.String("dataset_id", true, &parent.dataset_id);
  fields.String("version", true, &parent.version);
  return parent;
}

}  // namespace

Card DecodeCard(const Json& value, const std::string& pointer, Problems& problems) {
  Card card;
  if (!ExpectObject(value, pointer, problems)) return card;
  // Unknown keys of a card are dropped, not rejected: newer cards may carry more fields.
  Fields fields(value, pointer, problems);
  fields.String("dataset_id", true, &card.dataset_id);
  fields.String("dataset_version", true, &card.dataset_version);
  fields.String("name", true, &card.name);
  fields.String("description", true, &card.description);
  fields.Enum("license", true, "license", &card.license);
  if (const Json* domains = fields.Find("domains")) {
    std::string list_pointer = fields.PointerOf("domains");
    if (ExpectArray(*domains, list_pointer, problems)) {
      for (size_t i = 0; i < domains->size(); ++i) {
        Domain domain{};
        if (ReadEnum((*domains)[i], JoinPointer(list_pointer, i), problems, "domain", &domain)) {
          card.domains.push_back(domain);
        }
      }
    }
  }
  fields.StringList("tags", &card.tags);
  fields.NullableString("source_url", &card.source_url);
  fields.NullableString("source_revision", &card.source_revision);
  fields.NullableString("license_url", &card.license_url);
  fields.NullableString("citation", &card.citation);
  fields.Enum("access", false, "access", &card.access);
  fields.NullableString("access_url", &card.access_url);
  if (const Json* parents = fields.Find("parents")) {
    std::string list_pointer = fields.PointerOf("parents");
    if (ExpectArray(*parents, list_pointer, problems)) {
      for (size_t i = 0; i < parents->size(); ++i) {
        card.parents.push_back(DecodeParent((*parents)[i], JoinPointer(list_pointer, i), problems));
      }
    }
  }
  fields.NullableEnum("value_encoding", "value_encoding", &card.value_encoding);
  return card;
}

}  // namespace timef::manifest::internal
