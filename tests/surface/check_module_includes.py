#!/usr/bin/env python3
"""Checks that each module of src/ includes only its own headers and those of the modules it
declares with timef_module(... DEPENDS ...): CMake puts all of src/ and include/ on every include
path, so nothing else stops a module from reaching into one it does not link.

Usage: check_module_includes.py <source dir> <module_depends.txt>
module_depends.txt has one line per module, "name: dep dep ...", written by CMake from the
TIMEF_DEPENDS property. Also checks that no module depends, directly or through others, on a
module NEVER_DEPENDS forbids it (docs/architecture.md "Dependency direction"). Exits 1 and lists
every violation when there is one.
"""
import pathlib
import re
import sys

# The module that implements each public header (include/timef/...). A new public header must be
# added here; timef.h includes everything and no module may include it.
PUBLIC_OWNERS = {
    "timef/arrow_table.h": "catalog",
    "timef/client.h": "registry",
    "timef/compose.h": "compose",
    "timef/dataset_version.h": "reader",
    "timef/demo.h": "demo",
    "timef/error.h": "core",
    "timef/ids.h": "core",
    "timef/importers.h": "importers",
    "timef/json.h": "core",
    "timef/legacy.h": "legacy",
    "timef/manifest.h": "manifest",
    "timef/model.h": "model",
    "timef/reader.h": "reader",
    "timef/registry.h": "registry",
    "timef/remote.h": "reader",
    "timef/timef.h": None,
    "timef/units.h": "core",
    "timef/upgrade.h": "upgrade",
    "timef/value_pages.h": "reader",
    "timef/version.h": "core",
    "timef/vocabulary.h": "core",
    "timef/write_options.h": "core",
    "timef/writer.h": "writer",
}
PUBLIC_PREFIX_OWNERS = {"timef/model/": "model"}

# Modules a module must never reach through its DEPENDS closure. The reader never writes
# (issue 32): opening any release, legacy directories included, writes no values, so `reader`
# does not link `writer`; `timef upgrade` lives in `upgrade`, above both.
NEVER_DEPENDS = {"reader": {"writer"}}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def owner_of_public(name):
    if name in PUBLIC_OWNERS:
        return True, PUBLIC_OWNERS[name]
    for prefix, owner in PUBLIC_PREFIX_OWNERS.items():
        if name.startswith(prefix):
            return True, owner
    return False, None


def main():
    source_dir = pathlib.Path(sys.argv[1])
    depends = {}
    for line in pathlib.Path(sys.argv[2]).read_text().splitlines():
        if ":" in line:
            name, deps = line.split(":", 1)
            depends[name.strip()] = set(deps.split())
    modules = set(depends)

    # (file, the module it belongs to)
    files = []
    for module in sorted(modules):
        for path in sorted((source_dir / "src" / module).rglob("*")):
            if path.suffix in (".h", ".cc"):
                files.append((path, module))
    for path in sorted((source_dir / "include").rglob("*.h")):
        name = path.relative_to(source_dir / "include").as_posix()
        known, owner = owner_of_public(name)
        if not known:
            print(f"{name}: public header with no owning module (add it to PUBLIC_OWNERS)")
            return 1
        if owner is not None:
            files.append((path, owner))

    closure_violations = []
    for module, forbidden in sorted(NEVER_DEPENDS.items()):
        if module not in depends:
            closure_violations.append(f"{module}: not a module (NEVER_DEPENDS is out of date)")
            continue
        reached, pending = set(), list(depends[module])
        while pending:
            dep = pending.pop()
            if dep not in reached:
                reached.add(dep)
                pending.extend(depends.get(dep, ()))
        for dep in sorted(reached & forbidden):
            closure_violations.append(f"{module}: depends on {dep} (forbidden by NEVER_DEPENDS)")

    violations = []
    for path, module in files:
        allowed = depends[module] | {module}
        for included in INCLUDE.findall(path.read_text(encoding="utf-8", errors="replace")):
            first = included.split("/", 1)[0]
            if first == "timef":
                known, target = owner_of_public(included)
                if not known:
                    continue  # not a header of this project (reported above if it were)
                if target is None:
                    violations.append((path, included, "the umbrella header"))
                    continue
            elif first in modules and "/" in included:
                target = first
            else:
                continue  # a header of this folder's tests or of a third party
            if target not in allowed:
                violations.append((path, included, f"module {target}, not in DEPENDS of {module}"))

    for path, included, why in violations:
        print(f"{path.relative_to(source_dir)}: includes \"{included}\" ({why})")
    for line in closure_violations:
        print(line)
    checked = len(files)
    total = len(violations) + len(closure_violations)
    print(f"{checked} files of {len(modules)} modules checked, {total} violations")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
