#include "catalog/hydrate_text.h"

#include "timef/error.h"

namespace timef::catalog {
namespace {

[[noreturn]] void Bad(PackedSite site, const std::string& problem) {
  throw FormatError({.object = std::string(site.table), .where = std::string(site.column)},
                    problem);
}

// The joined row of a non-NULL key, its kind checked against `kind`.
std::optional<TextPayloadRow> RowAt(const Chunk& c, idx_t row, idx_t key_column, idx_t first,
                                    std::string_view kind, bool has_hook, PackedSite site) {
  const std::optional<int64_t> key = c.Int64(key_column).Optional(row);
  if (!key) return std::nullopt;
  const std::string name = "text key " + std::to_string(*key);
  if (c.Int64(first).IsNull(row)) Bad(site, name + " names no text_payloads row");
  const std::string_view found = c.Varchar(first + 4).Get(row);
  if (found != kind) {
    Bad(site,
        name + " has kind '" + std::string(found) + "', expected '" + std::string(kind) + "'");
  }
  if (!has_hook) {
    Bad(site, name + ": packed " + std::string(kind) + " met but no " + std::string(kind) +
                  " hook is set");
  }
  TextPayloadRow out;
  out.text_key = *key;
  if (auto source = c.Varchar(first + 1).Optional(row)) out.payload_source = std::string(*source);
  out.file = c.Varchar(first + 2).Get(row);
  out.row = c.Int64(first + 3).Get(row);
  out.length = c.Int64(first + 5).Get(row);
  return out;
}

}  // namespace

std::string PackedColumns(std::string_view alias) {
  const std::string a(alias);
  return a + ".text_key, " + a + ".payload_source, " + a + ".file, " + a + ".\"row\", " + a +
         ".kind, " + a + ".length";
}

std::optional<model::Text> PackedTextAt(const Chunk& chunk, idx_t row, idx_t key_column,
                                        idx_t first, const HydrateOptions& options,
                                        PackedSite site) {
  std::optional<TextPayloadRow> packed =
      RowAt(chunk, row, key_column, first, "text", static_cast<bool>(options.text), site);
  if (!packed) return std::nullopt;
  return options.text(*packed);
}

std::optional<model::TextList> PackedTextListAt(const Chunk& chunk, idx_t row, idx_t key_column,
                                                idx_t first, const HydrateOptions& options,
                                                PackedSite site) {
  std::optional<TextPayloadRow> packed =
      RowAt(chunk, row, key_column, first, "text_list", static_cast<bool>(options.text_list), site);
  if (!packed) return std::nullopt;
  return options.text_list(*packed);
}

}  // namespace timef::catalog
