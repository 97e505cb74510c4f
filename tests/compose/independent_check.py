#!/usr/bin/python3
"""The independent check of a child release (issue 12 acceptance): DuckDB SQL on the child's
catalog (through catalog_sql, DuckDB's C API alone) and the manifests' JSON read here, no timef
code. Checks that every (payload_source, path) of a locator names a pin, that every pin equals the
storing release's FilePart, that the pins are exactly the files used, and that the import tables
agree with dataset_parents and metadata.parents.

Usage: independent_check.py CATALOG_SQL REGISTRY_ROOT CHILD_DIR
"""
import json
import pathlib
import subprocess
import sys


def rows(tool, catalog, sql):
    out = subprocess.run([tool, str(catalog), sql], check=True, capture_output=True, text=True)
    return [tuple(json.loads(line)) for line in out.stdout.splitlines()]


def main():
    tool, root, child = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    manifest = json.loads((child / "manifest.json").read_text())
    catalog = child / "control.duckdb"
    failures = []

    used = set(rows(tool, catalog, """
        SELECT payload_source, value_path FROM signal_chunks WHERE payload_source IS NOT NULL
        UNION SELECT payload_source, file FROM text_payloads WHERE payload_source IS NOT NULL
        UNION SELECT offsets_payload_source, offsets_path FROM axes
              WHERE offsets_payload_source IS NOT NULL"""))
    sources = manifest.get("payload_sources", {})
    pinned = {(ref, pin["path"]) for ref, pins in sources.items() for pin in pins}
    if not used:
        failures.append("no locator names a payload source")
    for pair in sorted(used - pinned):
        failures.append(f"locator {pair} names no pin")
    for pair in sorted(pinned - used):
        failures.append(f"pin {pair} is used by no locator")

    for ref, pins in sources.items():
        dataset_id, version = ref.split("@")
        source = json.loads((root / dataset_id / version / "manifest.json").read_text())
        listed = {p["path"]: p for p in source["files"]["time_series"] + source["files"]["payloads"]}
        for pin in pins:
            if listed.get(pin["path"]) != pin:
                failures.append(f"pin {ref} {pin['path']} differs from the source's FilePart")

    parents = [(p["alias"], p["dataset_id"], p["version"]) for p in manifest["metadata"]["parents"]]
    stored = rows(tool, catalog, "SELECT alias, dataset_id, version FROM dataset_parents "
                                 "ORDER BY position")
    if stored != parents:
        failures.append(f"dataset_parents {stored} != metadata.parents {parents}")
    if set(manifest.get("parent_cards", {})) != {p[0] for p in parents}:
        failures.append("parent_cards keys are not the aliases")
    aliases = {p[0] for p in parents}
    for table, local, parent in (("record_imports", "record_id", "parent_record_id"),
                                 ("imported_signals", "signal_id", "parent_signal_id"),
                                 ("imported_tasks", "task_id", "parent_task_id")):
        found = rows(tool, catalog, f"SELECT parent_alias, {local}, {parent} FROM {table}")
        if table == "record_imports" and parents and not found:
            failures.append("no record_imports rows")
        for alias, _, _ in found:
            if alias not in aliases:
                failures.append(f"{table}: alias {alias} is not a parent")
        if len({(a, p) for a, _, p in found}) != len(found):
            failures.append(f"{table}: a parent object is imported twice under one alias")
    kinds = {"record_imports": "records", "imported_signals": "signals", "imported_tasks": "tasks"}
    for table, target in kinds.items():
        column = {"records": "record_id", "signals": "signal_id", "tasks": "task_id"}[target]
        orphans = rows(tool, catalog, f"SELECT count(*) FROM {table} i WHERE NOT EXISTS "
                                      f"(SELECT 1 FROM {target} t WHERE t.{column} = i.{column})")
        if orphans[0][0] != "0":
            failures.append(f"{table}: {orphans[0][0]} rows name no {target} row")
    inherited = rows(tool, catalog, "SELECT DISTINCT parent_alias FROM imported_annotations")
    for (alias,) in inherited:
        if alias not in aliases:
            failures.append(f"imported_annotations: alias {alias} is not a parent")

    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    if failures:
        return 1
    print(f"independent check: {len(used)} (payload_source, path) pairs, all pinned; "
          f"{sum(len(p) for p in sources.values())} pins equal their sources; imports consistent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
