# Sourced by scripts/fuzz.sh and scripts/fuzz-campaign.sh: the targets, their seeds and input
# limits, stated once.

# Every libFuzzer target under fuzz/ (fuzz_<name>), the default of both scripts.
fuzz_all_targets=(parquet_read manifest_parse payload_read cli_args zarr_meta legacy_manifest edf_header
  wfdb_header url_parse s3_list)

# Sets the array `seeds` to the seed directories of target $1: fuzz/corpus/<name>/ (the demo's
# manifest and payload files, Parquet files of several writers) and, for the Parquet target, the
# Parquet files the test suite keeps. $2 is the repository root.
fuzz_seeds() {
  seeds=()
  [ -d "$2/fuzz/corpus/$1" ] && seeds+=("$2/fuzz/corpus/$1")
  [ "$1" = parquet_read ] && [ -d "$2/tests/parquet/data" ] && seeds+=("$2/tests/parquet/data")
  return 0
}

# The largest input of target $1 (-max_len). Parquet files: beyond 64 KiB the mutations mostly
# rewrite page bytes the CRC rejects, and each execution costs more. CLI arguments: 4 KiB covers
# any real command line; at 64 KiB the inputs grew to 20 KB and the rate fell fourfold.
fuzz_max_len() {
  case $1 in
    cli_args) echo 4096 ;;
    *) echo 65536 ;;
  esac
}
