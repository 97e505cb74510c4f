// Regenerates the Parquet fixtures the format-layer tests read (run from the repository root:
// `node tests/parquet/data/make_format_fixtures.mjs`). They come from parquet-wasm (arrow-rs), an
// independent writer that emits data page v2 and a page index, which DuckDB does not.
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const nodeDir = path.join(here, "..", "..", "interop", "node");
const require = createRequire(path.join(nodeDir, "package.json"));
const arrow = require("apache-arrow");
const pq = await import(pathToFileURL(require.resolve("parquet-wasm")).href);

const rows = 3000;
const ids = BigInt64Array.from({ length: rows }, (_, i) => BigInt(i) * 3n - 1000n);
const labels = Array.from({ length: rows }, (_, i) => (i % 7 === 0 ? null : `label-${i % 40}`));
const xs = Float64Array.from({ length: rows }, (_, i) => (i % 97 === 0 ? NaN : i / 8));
const table = arrow.tableFromArrays({ id: ids, label: labels, x: xs });
const wasmTable = pq.Table.fromIPCStream(arrow.tableToIPC(table, "stream"));
const props = new pq.WriterPropertiesBuilder()
  .setCompression(pq.Compression.ZSTD)
  .setWriterVersion(pq.WriterVersion.V2)
  .setMaxRowGroupSize(1000)
  .setWriteBatchSize(100)
  .setDataPageSizeLimit(512)
  .setCreatedBy("parquet-wasm fixture for timef")
  .build();
writeFileSync(path.join(here, "parquet_wasm_v2_page_index.parquet"), pq.writeParquet(wasmTable, props));
