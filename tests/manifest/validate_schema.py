#!/usr/bin/python3
"""Validates manifests against schemas/manifest.schema.json with an independent validator.

Usage: validate_schema.py SCHEMA PRODUCED_DIR EXAMPLES_DIR

Every *.json in PRODUCED_DIR (the manifests the C++ tests wrote) and in EXAMPLES_DIR must be
valid; a handful of manifests broken on purpose must be rejected, so this test can fail.
Validator: Draft202012Validator of Debian's python3-jsonschema (DECIDE FORMAT.md §5.11).
"""
import copy
import json
import pathlib
import sys

from jsonschema import Draft202012Validator

MIN_PRODUCED = 5  # the C++ tests write more; fewer means they did not run


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def mutations():
    """(name, function that breaks a valid manifest in place)."""

    def drop(key):
        return lambda m: m.pop(key)

    def setter(path, value):
        def apply(m):
            node = m
            for step in path[:-1]:
                node = node[step]
            node[path[-1]] = value
        return apply

    return [
        ("missing files", drop("files")),
        ("unknown top-level key", setter(["extra"], 1)),
        ("format version 2", setter(["timef_format_version"], 2)),
        ("format version true", setter(["timef_format_version"], True)),
        ("dataset id with two slashes", setter(["dataset_id"], "a/b/c")),
        ("dataset id ../evil", setter(["dataset_id"], "../evil")),
        ("bad semver", setter(["metadata", "dataset_version"], "1.0")),
        ("unknown license", setter(["metadata", "license"], "WTFPL")),
        ("license other without url", lambda m: (setter(["metadata", "license"], "other")(m),
                                                 m["metadata"].pop("license_url", None))),
        ("restricted without url", lambda m: (setter(["metadata", "access"], "restricted")(m),
                                              setter(["metadata", "access_url"], None)(m))),
        ("null schema", setter(["schema"], None)),
        ("absolute control path", setter(["files", "control", "path"], "/control.duckdb")),
        ("other control path", setter(["files", "control", "path"], "catalog.duckdb")),
        ("dotdot path", setter(["files", "control", "path"], "a/../control.duckdb")),
        ("uppercase checksum", setter(["files", "control", "checksum"], "sha256:" + "A" * 64)),
        ("negative size", setter(["files", "control", "size"], -1)),
        ("boolean size", setter(["files", "control", "size"], True)),
        ("unknown key in file part", setter(["files", "control", "mtime"], 0)),
        ("unknown backend", setter(["values_backend"], "hdf5")),
        ("bad parent alias", setter(["metadata", "parents"],
                                    [{"alias": "Bad", "dataset_id": "a/b", "version": "1.0.0"}])),
        ("bad payload source ref", setter(["payload_sources"], {"a/b": []})),
        ("unknown task type", setter(["schema", "tasks"], [{"task_type": "dance"}])),
    ]


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    schema = load(argv[1])
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    failures = []

    produced = sorted(pathlib.Path(argv[2]).glob("*.json"))
    examples = sorted(pathlib.Path(argv[3]).glob("*.json"))
    if len(produced) < MIN_PRODUCED:
        failures.append(f"{argv[2]}: only {len(produced)} produced manifests (want >= {MIN_PRODUCED})")
    if not examples:
        failures.append(f"{argv[3]}: no example manifests")

    for path in produced + examples:
        document = load(path)
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        for error in errors:
            pointer = "/" + "/".join(str(p) for p in error.absolute_path)
            failures.append(f"{path}: {pointer}: {error.message}")

    # Known-bad manifests: each mutation of each example must be rejected.
    rejected = 0
    for path in examples:
        base = load(path)
        for name, mutate in mutations():
            document = copy.deepcopy(base)
            mutate(document)
            if validator.is_valid(document):
                failures.append(f"{path}: schema accepted a manifest with: {name}")
            else:
                rejected += 1

    for line in failures:
        print(line, file=sys.stderr)
    print(f"validated {len(produced)} produced and {len(examples)} example manifests; "
          f"{rejected} of {len(examples) * len(mutations())} broken ones rejected; "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
