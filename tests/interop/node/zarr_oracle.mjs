// The zarrita oracle of timef's Zarr values plane (docs/format.md §8), an independent reader and
// writer (zarrita with numcodecs' blosc, pinned in package.json).
//
//   node zarr_oracle.mjs read DIR ARRAY...   opens each array of the store DIR (paths relative to
//       DIR) with zarrita, reads it whole and prints {path: {dtype, shape, dimension_names, hex}}
//       where hex is the little-endian bytes of the values.
//   node zarr_oracle.mjs write DIR           writes unsharded bytes + blosc arrays (every dtype
//       timef stores, one N-D) below DIR with zarrita and prints the same JSON for them.
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";

const hex = (data) =>
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("hex");

async function describe(root, path) {
  // zarrita's Location.resolve decodes %XX of the whole path on every resolve (zarr.json, chunk
  // keys): keep the array's own path escaped once so that our %-encoded names stay literal.
  const location = new zarr.Location(root.store, "/" + path.replaceAll("%", "%25"));
  const arr = await zarr.open(location, { kind: "array" });
  const chunk = await zarr.get(arr);
  return {
    dtype: arr.dtype,
    shape: chunk.shape,
    dimension_names: arr.dimensionNames ?? null,
    hex: hex(chunk.data),
  };
}

function blosc(typesize, cname) {
  return [
    { name: "bytes", configuration: { endian: "little" } },
    {
      name: "blosc",
      configuration: { cname, clevel: 5, shuffle: "shuffle", typesize, blocksize: 0 },
    },
  ];
}

// Values with the hard cases: NaN payloads, ±inf, −0.0, extremes.
function arrays() {
  const f32 = new Float32Array([1.5, -0.0, Infinity, -Infinity, 0, 3.25, 7]);
  new Uint32Array(f32.buffer)[4] = 0x7fc12345; // a NaN with a payload
  const f64 = new Float64Array([Math.PI, -0.0, Infinity, -Infinity, 0, 5e-324, 2]);
  new BigUint64Array(f64.buffer)[4] = 0xfff8000000000abcn;
  const nd = new Float32Array(5 * 2 * 3);
  for (let i = 0; i < nd.length; ++i) nd[i] = i / 7 - 1;
  return [
    { path: "f32", dtype: "float32", shape: [7], chunk: [3], data: f32, cname: "zstd" },
    { path: "f64", dtype: "float64", shape: [7], chunk: [4], data: f64, cname: "lz4" },
    { path: "i8", dtype: "int8", shape: [4], chunk: [3], data: new Int8Array([-128, 0, 127, 5]), cname: "zlib" },
    { path: "i16", dtype: "int16", shape: [3], chunk: [2], data: new Int16Array([-32768, 1, 32767]), cname: "lz4hc" },
    { path: "i32", dtype: "int32", shape: [3], chunk: [2], data: new Int32Array([-2147483648, 7, 2147483647]), cname: "blosclz" },
    { path: "u8", dtype: "uint8", shape: [3], chunk: [2], data: new Uint8Array([0, 255, 9]), cname: "zstd" },
    { path: "u16", dtype: "uint16", shape: [3], chunk: [2], data: new Uint16Array([65535, 2, 0]), cname: "zstd" },
    { path: "u32", dtype: "uint32", shape: [3], chunk: [2], data: new Uint32Array([4294967295, 3, 0]), cname: "zstd" },
    { path: "b", dtype: "bool", shape: [5], chunk: [2], data: new zarr.BoolArray([true, false, true, true, false]), cname: "zstd" },
    { path: "nd", dtype: "float32", shape: [5, 2, 3], chunk: [2, 2, 3], data: nd, cname: "zstd", dims: ["step", "channel", "freq"] },
  ];
}

const [mode, dir, ...paths] = process.argv.slice(2);
const store = new FileSystemStore(dir);
const root = zarr.root(store);
const out = {};
if (mode === "read") {
  for (const path of paths) out[path] = await describe(root, path);
} else if (mode === "write") {
  await zarr.create(root, { attributes: {} });
  for (const a of arrays()) {
    const arr = await zarr.create(root.resolve(a.path), {
      shape: a.shape,
      chunkShape: a.chunk,
      dtype: a.dtype,
      codecs: blosc(a.data.BYTES_PER_ELEMENT, a.cname),
      fillValue: a.dtype === "bool" ? false : 0,
      dimensionNames: a.dims,
    });
    await zarr.set(arr, null, { data: a.data, shape: a.shape, stride: strides(a.shape) });
    out[a.path] = await describe(root, a.path);
  }
} else {
  throw new Error(`unknown mode ${mode}`);
}
console.log(JSON.stringify(out));

function strides(shape) {
  const s = new Array(shape.length).fill(1);
  for (let i = shape.length - 2; i >= 0; --i) s[i] = s[i + 1] * shape[i + 1];
  return s;
}
