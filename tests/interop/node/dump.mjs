// Prints a Parquet file's rows as JSON lines in the format of `timef parquet dump`, read by an
// independent reader: `node dump.mjs hyparquet|parquet-wasm FILE` prints to stdout;
// `node dump.mjs hyparquet|parquet-wasm --each FILE...` (one Node start-up for many files) writes
// each FILE's rows to FILE.READER, not written when the reader fails on FILE (the error goes to
// stderr, exit status 1). Column types (to tell FLOAT from DOUBLE, text from binary, unsigned
// from signed) come from the file's schema as hyparquet parses it; the values come from the named
// reader.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const hyparquet = await import(pathToFileURL(require.resolve("hyparquet")).href);
const { compressors } = await import(pathToFileURL(require.resolve("hyparquet-compressors")).href);

const [readerName, ...args] = process.argv.slice(2);
const each = args[0] === "--each";
const files = each ? args.slice(1) : args;

// Per top-level column: its name, the leaf schema element that holds its values, and whether it
// is a list.
function topLevelColumns(schema) {
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
    const top = schema[i];
    const leaf = walk();
    const isList = leaf !== null && leaf.repetition_type === "REPEATED" ||
                   top.converted_type === "LIST" || top.logical_type?.type === "LIST";
    out.push({ name: top.name, leaf, isList });
  }
  return out;
}

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
      // hyparquet turns a UUID into its canonical text, which spells out the 16 bytes in order.
      if (typeof v === "string" && leaf.logical_type?.type === "UUID") {
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v)) {
          throw new Error(`not a UUID: ${v}`);
        }
        return '"' + v.replaceAll("-", "") + '"';
      }
      return hex(v);
  }
}

function formatCell(column, v) {
  if (v === null || v === undefined) return "null";
  if (column.isList) {
    const items = Array.from(v, (item) => formatValue(column.leaf, item));
    return "[" + items.join(",") + "]";
  }
  return formatValue(column.leaf, v);
}

async function dump(file) {
  const bytes = readFileSync(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const columns = topLevelColumns(hyparquet.parquetMetadata(buffer).schema);
  const keys = columns.map((c) => JSON.stringify(c.name) + ":");
  let values;  // values(r) = row r's values, in column order
  let numRows;
  if (readerName === "hyparquet") {
    const rows = await hyparquet.parquetReadObjects({ file: buffer, compressors, utf8: false });
    values = (r) => columns.map((c) => rows[r][c.name]);
    numRows = rows.length;
  } else {
    const arrow = require("apache-arrow");
    const pq = await import(pathToFileURL(require.resolve("parquet-wasm")).href);
    const table = arrow.tableFromIPC(pq.readParquet(new Uint8Array(bytes)).intoIPCStream());
    const vectors = columns.map((c) => table.getChild(c.name));
    values = (r) => vectors.map((v) => v.get(r));
    numRows = table.numRows;
  }
  const lines = [];
  for (let r = 0; r < numRows; r++) {
    const row = values(r);
    lines.push("{" + columns.map((c, k) => keys[k] + formatCell(c, row[k])).join(",") + "}");
  }
  return lines.length ? lines.join("\n") + "\n" : "";
}

if (!["hyparquet", "parquet-wasm"].includes(readerName) || (!each && files.length !== 1)) {
  console.error("usage: node dump.mjs hyparquet|parquet-wasm FILE | --each FILE...");
  process.exit(2);
}
if (!each) {
  process.stdout.write(await dump(files[0]));
} else {
  let failed = false;
  for (const file of files) {
    try {
      writeFileSync(`${file}.${readerName}`, await dump(file));
    } catch (e) {
      console.error(`${file}: ${e?.stack ?? e}`);
      failed = true;
    }
  }
  process.exit(failed ? 1 : 0);
}
