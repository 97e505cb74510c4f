// Prints a Parquet file's rows as JSON lines in the format of `timef parquet dump`, read by an
// independent reader: `node dump.mjs hyparquet|parquet-wasm FILE`. Column types (to tell FLOAT
// from DOUBLE, text from binary, unsigned from signed) come from the file's schema as hyparquet
// parses it; the values come from the named reader.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const hyparquet = await import(pathToFileURL(require.resolve("hyparquet")).href);
const { compressors } = await import(pathToFileURL(require.resolve("hyparquet-compressors")).href);

const [readerName, file] = process.argv.slice(2);
const bytes = readFileSync(file);
const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const metadata = hyparquet.parquetMetadata(buffer);

// Per top-level column: the leaf schema element that holds its values.
function leafTypes(schema) {
  const out = [];
  let i = 1;
  function walk() {
    const element = schema[i++];
    if (!element.num_children) return element;
    let leaf = null;
    for (let k = 0; k < element.num_children; k++) leaf = walk() ?? leaf;
    return leaf;
  }
  const root = schema[0];
  for (let k = 0; k < root.num_children; k++) {
    const name = schema[i].name;
    out.push({ name, leaf: walk() });
  }
  return out;
}
const columns = leafTypes(metadata.schema);

// std::to_chars shortest form: fixed or scientific, whichever is shorter (fixed on a tie), with
// ".0" added to integral-looking text.
function formatFloating(x, isFloat32) {
  if (Number.isNaN(x)) return '"NaN"';
  if (x === Infinity) return '"Infinity"';
  if (x === -Infinity) return '"-Infinity"';
  const negative = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  let exp;
  if (isFloat32) {
    exp = null;
    for (let p = 1; p <= 9; p++) {
      const s = a.toExponential(p - 1);
      if (Math.fround(Number(s)) === a) {
        exp = s;
        break;
      }
    }
  } else {
    exp = a.toExponential();
  }
  const [mantissa, e] = exp.split("e");
  const digits = mantissa.replace(".", "");
  const power = Number(e);
  let fixed;
  if (power >= 0) {
    const intLen = power + 1;
    fixed = digits.length <= intLen ? digits + "0".repeat(intLen - digits.length)
                                    : digits.slice(0, intLen) + "." + digits.slice(intLen);
  } else {
    fixed = "0." + "0".repeat(-power - 1) + digits;
  }
  const expText = (power < 0 ? "-" : "+") + String(Math.abs(power)).padStart(2, "0");
  const sci = (digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits) + "e" + expText;
  let text = sci.length < fixed.length ? sci : fixed;
  if (!/[.e]/.test(text)) text += ".0";
  return (negative ? "-" : "") + text;
}

const hex = (u8) => '"' + Buffer.from(u8).toString("hex") + '"';
const decoder = new TextDecoder("utf-8");

function isText(leaf) {
  if (leaf.type !== "BYTE_ARRAY") return false;
  if (leaf.logical_type) return leaf.logical_type.type === "STRING";
  return leaf.converted_type === "UTF8";
}
function isUnsigned(leaf) {
  if (leaf.logical_type) return leaf.logical_type.type === "INTEGER" && !leaf.logical_type.isSigned;
  return ["UINT_8", "UINT_16", "UINT_32", "UINT_64"].includes(leaf.converted_type);
}

function formatValue(leaf, v) {
  if (v === null || v === undefined) return "null";
  switch (leaf.type) {
    case "BOOLEAN": return v ? "true" : "false";
    case "INT32":
      return String(isUnsigned(leaf) ? Number(v) >>> 0 : Number(v) | 0);
    case "INT64":
      return BigInt.asIntN(64, BigInt(v)) < 0n && isUnsigned(leaf)
          ? String(BigInt.asUintN(64, BigInt(v))) : String(BigInt(v));
    case "FLOAT": return formatFloating(Number(v), true);
    case "DOUBLE": return formatFloating(Number(v), false);
    case "BYTE_ARRAY":
      if (typeof v === "string") return JSON.stringify(v);
      return isText(leaf) ? JSON.stringify(decoder.decode(v)) : hex(v);
    default:
      return hex(v);
  }
}

function formatCell(column, v) {
  if (v === null || v === undefined) return "null";
  const isList = column.leaf !== null && column.leaf.repetition_type === "REPEATED" ||
                 metadata.schema.find((e) => e.name === column.name)?.converted_type === "LIST" ||
                 metadata.schema.find((e) => e.name === column.name)?.logical_type?.type === "LIST";
  if (isList) {
    const items = Array.from(v, (item) => formatValue(column.leaf, item));
    return "[" + items.join(",") + "]";
  }
  return formatValue(column.leaf, v);
}

function printRows(getRow, numRows) {
  const lines = [];
  for (let r = 0; r < numRows; r++) {
    const row = getRow(r);
    lines.push("{" + columns.map((c, k) => JSON.stringify(c.name) + ":" + formatCell(c, row[k])).join(",") + "}");
  }
  process.stdout.write(lines.length ? lines.join("\n") + "\n" : "");
}

if (readerName === "hyparquet") {
  const rows = await hyparquet.parquetReadObjects({ file: buffer, compressors, utf8: false });
  printRows((r) => columns.map((c) => rows[r][c.name]), rows.length);
} else if (readerName === "parquet-wasm") {
  const arrow = require("apache-arrow");
  const pq = await import(pathToFileURL(require.resolve("parquet-wasm")).href);
  const table = arrow.tableFromIPC(pq.readParquet(new Uint8Array(bytes)).intoIPCStream());
  const vectors = columns.map((c) => table.getChild(c.name));
  printRows((r) => vectors.map((v) => v.get(r)), table.numRows);
} else {
  console.error("usage: node dump.mjs hyparquet|parquet-wasm FILE");
  process.exit(2);
}
