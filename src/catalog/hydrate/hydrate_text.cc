#include "catalog/hydrate/hydrate_text.h"

#include "timef/error.h"

namespace timef::catalog {
namespace {

[[noreturn]] void Bad(PackedSite site, const std::string& problem) {
  throw FormatError({.object = std::string(site.table), .where = std::string(site.column)},
                    problem);
}

struct KeyedLocator {
  int64_t text_key;
  TextLocator locator;
};

// The joined row of a non-NULL key, its kind checked against `kind`.
std::optional<KeyedLocator> RowAt(const Chunk& c, idx_t row, idx_t key_column, idx_t first,
                                  std::string_view kind, PackedSite site) {
  const std::optional<int64_t> key = c.Int64(key_column).Optional(row);
  if (!key) return std::nullopt;
  const std::string name = "text key " + std::to_string(*key);
  if (c.Int64(first).IsNull(row)) Bad(site, name + " names no text_payloads row");
  const std::string_view found = c.Varchar(first + 4).Get(row);
  if (found != kind) {
    Bad(site,
        name + " has kind '" + std::string(found) + "', expected '" + std::string(kind) + "'");
  }
  KeyedLocator out{*key, {}};
  TextLocator& l = out.locator;
  if (auto source = c.Varchar(first + 1).Optional(row)) l.payload_source = std::string(*source);
  l.file = c.Varchar(first + 2).Get(row);
  l.row = c.Int64(first + 3).Get(row);
  l.length = c.Int64(first + 5).Get(row);
  return out;
}

}  // namespace

std::string PackedColumns(std::string_view alias) {
  const std::string a(alias);
  return a + ".text_key, " + a + ".payload_source, " + a + ".file, " + a + ".\"row\", " + a +
         ".kind, " + a + ".length";
}

std::optional<model::Text> PackedTextAt(const Chunk& chunk, idx_t row, idx_t key_column,
                                        idx_t first, const ValueResolver& values, PackedSite site) {
  std::optional<KeyedLocator> packed = RowAt(chunk, row, key_column, first, "text", site);
  if (!packed) return std::nullopt;
  return values.Text(packed->locator, packed->text_key);
}

std::optional<model::TextList> PackedTextListAt(const Chunk& chunk, idx_t row, idx_t key_column,
                                                idx_t first, const ValueResolver& values,
                                                PackedSite site) {
  std::optional<KeyedLocator> packed = RowAt(chunk, row, key_column, first, "text_list", site);
  if (!packed) return std::nullopt;
  return values.TextList(packed->locator, packed->text_key);
}

}  // namespace timef::catalog
