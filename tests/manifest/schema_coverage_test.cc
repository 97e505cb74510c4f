// schemas/manifest.schema.json against the writer: every key the writer emits is described there,
// and every property the schema describes is one the writer emits for a fully filled manifest.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "manifest/manifest_fixtures.h"
#include "timef/manifest.h"

namespace timef::manifest {
namespace {

class SchemaWalker {
 public:
  explicit SchemaWalker(Json schema) : root_(std::move(schema)) {}

  // Keys of `value` (at `pointer`) that no schema node describes, and properties the schema
  // lists that `value` lacks.
  void Walk(const Json& node, const Json& value, const std::string& pointer) {
    std::vector<const Json*> nodes;
    Collect(node, nodes);
    if (value.is_object()) WalkObject(nodes, value, pointer);
    if (value.is_array()) {
      for (size_t i = 0; i < value.size(); ++i) {
        bool described = false;
        for (const Json* n : nodes) {
          if (n->contains("items")) {
            Walk((*n)["items"], value[i], pointer + "/" + std::to_string(i));
            described = true;
          }
        }
        if (!described) undescribed.push_back(pointer + "/" + std::to_string(i));
      }
    }
  }

  const Json& root() const { return root_; }
  std::vector<std::string> undescribed;
  std::vector<std::string> not_emitted;

 private:
  // The node plus everything it refers to or combines ($ref, allOf, anyOf, oneOf).
  void Collect(const Json& node, std::vector<const Json*>& out) {
    if (!node.is_object()) return;
    out.push_back(&node);
    if (node.contains("$ref")) {
      std::string ref = node["$ref"];
      ASSERT_TRUE(ref.starts_with("#")) << ref;
      Collect(root_[Json::json_pointer(ref.substr(1))], out);
    }
    for (const char* combinator : {"allOf", "anyOf", "oneOf"}) {
      if (node.contains(combinator)) {
        for (const Json& branch : node[combinator]) Collect(branch, out);
      }
    }
  }

  void WalkObject(const std::vector<const Json*>& nodes, const Json& value,
                  const std::string& pointer) {
    std::set<std::string> listed;
    for (const Json* n : nodes) {
      if (n->contains("properties") && n->value("type", Json()) == "object") {
        for (const auto& [key, sub] : (*n)["properties"].items()) listed.insert(key);
      }
    }
    for (const auto& [key, member] : value.items()) {
      std::string at = pointer + "/" + key;
      bool described = false;
      for (const Json* n : nodes) {
        if (n->contains("properties") && (*n)["properties"].contains(key)) {
          Walk((*n)["properties"][key], member, at);
          described = true;
        }
      }
      if (!described) {
        // A free-form map: its values are described by an additionalProperties schema.
        for (const Json* n : nodes) {
          if (n->contains("additionalProperties") && (*n)["additionalProperties"].is_object()) {
            Walk((*n)["additionalProperties"], member, at);
            described = true;
          }
        }
      }
      if (!described) undescribed.push_back(at);
    }
    for (const std::string& key : listed) {
      if (!value.contains(key)) not_emitted.push_back(pointer + "/" + key);
    }
  }

  Json root_;
};

Json LoadSchema() {
  return Json::parse(testing::ReadFileBytes(std::filesystem::path(TIMEF_SOURCE_DIR) / "schemas" /
                                            "manifest.schema.json"));
}

TEST(SchemaCoverageTest, SchemaHasTheDocumentedHeaderAndDefs) {
  Json schema = LoadSchema();
  EXPECT_EQ(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
  EXPECT_EQ(schema["$id"], "urn:timef:schema:manifest:1");
  EXPECT_EQ(schema["additionalProperties"], false);
  for (const char* name : {"datasetId", "version", "ref", "alias", "relPath", "checksum",
                           "filePart", "card", "parentEntry", "spec", "annotationDescriptor",
                           "taskEntry", "counts", "files", "buildEnv", "unit"}) {
    EXPECT_TRUE(schema["$defs"].contains(name)) << name;
  }
  // Cards keep room for newer fields; nothing else does.
  EXPECT_EQ(schema["$defs"]["card"]["additionalProperties"], true);
  EXPECT_EQ(schema["$defs"]["filePart"]["additionalProperties"], false);
  EXPECT_EQ(schema["$defs"]["parentEntry"]["additionalProperties"], false);
}

TEST(SchemaCoverageTest, EveryEmittedKeyIsDescribedAndEveryDescribedKeyEmitted) {
  Manifest full = testing::FullManifest();
  full.build_env.upgraded_from = UpgradedFrom{2, testing::FakeChecksum("legacy")};
  Json written = Json::parse(WriteManifest(full));
  SchemaWalker walker(LoadSchema());
  walker.Walk(walker.root(), written, "");
  EXPECT_TRUE(walker.undescribed.empty()) << ::testing::PrintToString(walker.undescribed);
  EXPECT_TRUE(walker.not_emitted.empty()) << ::testing::PrintToString(walker.not_emitted);
}

TEST(SchemaCoverageTest, WalkerNoticesAnUndescribedKey) {
  // The check above must be able to fail.
  Json written = Json::parse(WriteManifest(testing::FullManifest()));
  written["files"]["control"]["mtime"] = 1;
  written["metadata"]["surprise"] = 1;  // cards allow it, but the schema does not describe it
  SchemaWalker walker(LoadSchema());
  walker.Walk(walker.root(), written, "");
  EXPECT_EQ(walker.undescribed,
            (std::vector<std::string>{"/metadata/surprise", "/files/control/mtime"}));
}

}  // namespace
}  // namespace timef::manifest
