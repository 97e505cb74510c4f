// Client (include/timef/client.h): refs resolved against local and URL registries in order.
#include "timef/client.h"

#include <cstdlib>

#include "timef/error.h"

namespace timef {
namespace fs = std::filesystem;

namespace {

std::optional<std::string> Env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

// The registries of ClientOptions::registries, or those the environment configures.
std::vector<std::string> ConfiguredRegistries(std::vector<std::string> given) {
  if (!given.empty()) return given;
  if (std::optional<std::string> list = Env(std::string(kRegistriesEnv).c_str())) {
    std::vector<std::string> out;
    std::size_t begin = 0;
    while (begin <= list->size()) {
      std::size_t end = list->find(',', begin);
      if (end == std::string::npos) end = list->size();
      if (end > begin) out.push_back(list->substr(begin, end - begin));
      begin = end + 1;
    }
    if (!out.empty()) return out;
  }
  if (std::optional<std::string> root = Env("TIMEF_ROOT")) return {*root};
  return {};
}

}  // namespace

Client::Client(ClientOptions options) : reader_(std::move(options.reader)) {
  if (options.cache_dir) reader_.cache_dir = std::move(options.cache_dir);
  reader_.sources_root.reset();
  for (const std::string& root : ConfiguredRegistries(std::move(options.registries))) {
    registries_.push_back(Registry::Open(root));
  }
  if (registries_.empty()) {
    throw ValidationError({.object = "Client"},
                          "no registry: pass registries, or set $" + std::string(kRegistriesEnv) +
                              " (roots and URLs separated by ',') or $TIMEF_ROOT");
  }
}

DatasetVersion Client::OpenVersion(std::string_view text) const {
  const RegistryRef ref = RegistryRef::Parse(text);
  std::string searched;
  bool passed_over = false;
  for (const Registry& registry : registries_) {
    searched += (searched.empty() ? "" : ", ") + registry.root().string();
    if (!ref.version && registry.remote()) {
      passed_over = true;
      continue;
    }
    if (!ref.version && registry.Versions(ref.dataset_id).empty()) continue;
    try {
      return registry.OpenVersion(text);
    } catch (const NotFoundError& e) {
      // The exact release is not in this registry: the next one may hold it.
      if (!ref.version || e.where() != ref.ToString()) throw;
    }
  }
  throw NotFoundError({.object = "Client", .where = ref.ToString()},
                      "no registry holds it (searched " + searched + ")" +
                          (passed_over ? "; URL registries have no listing, so they resolve only "
                                         "an exact version org/name@x.y.z"
                                       : ""));
}

Reader Client::Open(std::string_view ref) const { return Reader::Open(OpenVersion(ref), reader_); }

std::unique_ptr<model::Dataset> Client::Load(std::string_view ref) const {
  Reader reader = Open(ref);
  std::unique_ptr<model::Dataset> dataset = reader.Read(LoadPlan::AllEager());
  reader.Close();
  return dataset;
}

}  // namespace timef
