#include "catalog/duckdb/duckdb_types.h"

namespace timef::catalog {
namespace {

std::string_view TypeIdName(duckdb_type id) {
  switch (id) {
    case DUCKDB_TYPE_BOOLEAN:
      return "BOOLEAN";
    case DUCKDB_TYPE_TINYINT:
      return "TINYINT";
    case DUCKDB_TYPE_SMALLINT:
      return "SMALLINT";
    case DUCKDB_TYPE_INTEGER:
      return "INTEGER";
    case DUCKDB_TYPE_BIGINT:
      return "BIGINT";
    case DUCKDB_TYPE_UTINYINT:
      return "UTINYINT";
    case DUCKDB_TYPE_USMALLINT:
      return "USMALLINT";
    case DUCKDB_TYPE_UINTEGER:
      return "UINTEGER";
    case DUCKDB_TYPE_UBIGINT:
      return "UBIGINT";
    case DUCKDB_TYPE_HUGEINT:
      return "HUGEINT";
    case DUCKDB_TYPE_UHUGEINT:
      return "UHUGEINT";
    case DUCKDB_TYPE_FLOAT:
      return "FLOAT";
    case DUCKDB_TYPE_DOUBLE:
      return "DOUBLE";
    case DUCKDB_TYPE_DECIMAL:
      return "DECIMAL";
    case DUCKDB_TYPE_VARCHAR:
      return "VARCHAR";
    case DUCKDB_TYPE_BLOB:
      return "BLOB";
    case DUCKDB_TYPE_DATE:
      return "DATE";
    case DUCKDB_TYPE_TIME:
      return "TIME";
    case DUCKDB_TYPE_TIMESTAMP:
      return "TIMESTAMP";
    case DUCKDB_TYPE_TIMESTAMP_TZ:
      return "TIMESTAMP WITH TIME ZONE";
    case DUCKDB_TYPE_INTERVAL:
      return "INTERVAL";
    case DUCKDB_TYPE_LIST:
      return "LIST";
    case DUCKDB_TYPE_STRUCT:
      return "STRUCT";
    case DUCKDB_TYPE_MAP:
      return "MAP";
    case DUCKDB_TYPE_ARRAY:
      return "ARRAY";
    case DUCKDB_TYPE_ENUM:
      return "ENUM";
    case DUCKDB_TYPE_UUID:
      return "UUID";
    case DUCKDB_TYPE_SQLNULL:
      return "NULL";
    default:
      return "type #";
  }
}

std::string Alias(duckdb_logical_type type) {
  char* alias = duckdb_logical_type_get_alias(type);
  if (alias == nullptr) return {};
  std::string out(alias);
  duckdb_free(alias);
  return out;
}

}  // namespace

ColumnKind ClassifyType(duckdb_logical_type type) {
  duckdb_type id = duckdb_get_type_id(type);
  switch (id) {
    case DUCKDB_TYPE_BIGINT:
      return ColumnKind::kBigint;
    case DUCKDB_TYPE_DOUBLE:
      return ColumnKind::kDouble;
    case DUCKDB_TYPE_BOOLEAN:
      return ColumnKind::kBoolean;
    case DUCKDB_TYPE_VARCHAR:
      return ColumnKind::kVarchar;
    case DUCKDB_TYPE_LIST: {
      duckdb_logical_type child = duckdb_list_type_child_type(type);
      duckdb_type child_id = duckdb_get_type_id(child);
      duckdb_destroy_logical_type(&child);
      if (child_id == DUCKDB_TYPE_BIGINT) return ColumnKind::kBigintList;
      if (child_id == DUCKDB_TYPE_VARCHAR) return ColumnKind::kVarcharList;
      return ColumnKind::kOther;
    }
    default:
      return ColumnKind::kOther;
  }
}

std::string LogicalTypeName(duckdb_logical_type type) {
  std::string alias = Alias(type);
  if (!alias.empty()) return alias;
  duckdb_type id = duckdb_get_type_id(type);
  if (id == DUCKDB_TYPE_LIST) {
    duckdb_logical_type child = duckdb_list_type_child_type(type);
    std::string out = LogicalTypeName(child) + "[]";
    duckdb_destroy_logical_type(&child);
    return out;
  }
  std::string_view name = TypeIdName(id);
  if (name == "type #") return std::string(name) + std::to_string(static_cast<int>(id));
  return std::string(name);
}

std::string_view ColumnKindName(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::kBigint:
      return "BIGINT";
    case ColumnKind::kDouble:
      return "DOUBLE";
    case ColumnKind::kBoolean:
      return "BOOLEAN";
    case ColumnKind::kVarchar:
      return "VARCHAR";
    case ColumnKind::kBigintList:
      return "BIGINT[]";
    case ColumnKind::kVarcharList:
      return "VARCHAR[]";
    case ColumnKind::kOther:
      break;
  }
  return "other";
}

}  // namespace timef::catalog
