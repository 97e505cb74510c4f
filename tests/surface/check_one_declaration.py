#!/usr/bin/env python3
"""Checks that each concept shared between modules is declared once (issue 32, item 1).

Usage: check_one_declaration.py <source dir>

Reads the C++ sources under src/, include/, tools/ and python/ and fails (exit 1, listing each
problem) when:
  - a retired twin type is declared again (AuditCounts, ParentRow, TimeSeriesSpec, ...);
  - a concept type is declared more than once, or not at all;
  - another struct repeats every data member of a concept type (a twin under a new name, which the
    two lists above cannot name in advance).
"""
import pathlib
import re
import sys

# Concept -> where its one declaration lives (relative to the source dir).
CONCEPTS = {
    "Spec": "include/timef/model/spec.h",
    "Schema": "include/timef/model/schema.h",
    "AnnotationDescriptor": "include/timef/model/schema.h",
    "ParentRelease": "include/timef/model/parent.h",
    "Counts": "include/timef/manifest.h",
    "ChunkLocator": "src/core/locators.h",
    "OffsetsLocator": "src/core/locators.h",
    "TextLocator": "src/core/locators.h",
    # The file-series write options both planes share (payload::PayloadOptions is an alias,
    # values::ValuesOptions extends it; issue 32 item 2).
    "FileSeriesOptions": "src/parquet/writer_options.h",
}

# A locator resolved to the file to open: holds the concept's locator, and repeats none of its
# fields (under their names or the names they had when these were twins: row_group, row, name).
RESOLVED = {
    "ChunkRef": ("ChunkLocator", {"row_group", "row", "name"}),
    "TextRef": ("TextLocator", {"name"}),
    "OffsetsRef": ("OffsetsLocator", {"name"}),
}

# Types that were twins of the concepts above and were folded into them.
RETIRED = [
    "AuditCounts", "AuditSpec", "AuditDescriptor",  # catalog audit facts
    "ParentEntry", "ParentRow",  # manifest card / catalog identity
    "TimeSeriesSpec", "DerivedSchema",  # manifest / model schema
]

DECLARATION = re.compile(
    r"^\s*(?:struct|class)\s+(\w+)\s*(?:final\s*)?(?::[^;{]*)?\{", re.MULTILINE)
ALIAS = re.compile(r"^\s*(?:using\s+(\w+)\s*=|typedef\s+[^;]*?\b(\w+)\s*;)", re.MULTILINE)
MEMBER = re.compile(r"^[\w:<>,\s\*&]+?[\s\*&>](\w+)\s*(?:=[^;]*|\{[^;]*\})?;$")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def body_at(text, start):
    """The text between the brace at `start` and its match."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    return text[start + 1:]


def members(body):
    """Names of the data members declared at the top level of a class body."""
    top = []
    depth = 0
    current = ""
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            current += ch
            if ch == ";":
                top.append(" ".join(current.split()))
                current = ""
        elif depth > 0 and ch == ";":
            pass
    names = []
    for statement in top:
        statement = re.sub(r"^(public|private|protected)\s*:\s*", "", statement)
        if "(" in statement or statement.startswith(("using ", "static ", "friend ", "typedef ")):
            continue
        m = MEMBER.match(statement)
        if m:
            names.append(m.group(1))
    return names


def main():
    root = pathlib.Path(sys.argv[1])
    files = []
    for folder in ("src", "include", "tools", "python"):
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in (".h", ".cc", ".hpp", ".cpp"):
                files.append(path)

    problems = []
    declared = {}  # name -> [(file, members)]
    for path in files:
        text = strip_comments(path.read_text(encoding="utf-8", errors="replace"))
        rel = path.relative_to(root).as_posix()
        for m in DECLARATION.finditer(text):
            body = body_at(text, m.end() - 1)
            declared.setdefault(m.group(1), []).append((rel, members(body)))
        for m in ALIAS.finditer(text):
            name = m.group(1) or m.group(2)
            if name in RETIRED:
                problems.append(f"{rel}: alias of the retired type {name}")

    for name in RETIRED:
        for rel, _ in declared.get(name, []):
            problems.append(f"{rel}: declares {name}, a twin retired in favour of one concept type")

    for name, home in CONCEPTS.items():
        places = declared.get(name, [])
        homes = [rel for rel, _ in places if rel == home]
        if not homes:
            problems.append(f"{home}: the concept {name} is no longer declared here")
        if len(places) > 1:
            problems.append(f"{name} is declared {len(places)} times: " +
                            ", ".join(rel for rel, _ in places))
        concept_members = next((fields for rel, fields in places if rel == home), [])
        if len(concept_members) < 3:
            continue
        for other, twins in declared.items():
            if other == name:
                continue
            for rel, fields in twins:
                if set(concept_members) <= set(fields):
                    problems.append(f"{rel}: {other} repeats every member of {name} ({home}): "
                                    "use the one type")

    for name, (concept, old_names) in RESOLVED.items():
        concept_fields = set(next((f for rel, f in declared.get(concept, [])
                                   if rel == CONCEPTS[concept]), []))
        for rel, fields in declared.get(name, []):
            if "locator" not in fields:
                problems.append(f"{rel}: {name} does not hold its {concept} (member `locator`)")
            repeated = sorted((set(fields) - {"file"}) & (concept_fields | old_names))
            if repeated:
                problems.append(f"{rel}: {name} repeats {concept} fields {repeated}: use "
                                f"`locator`")

    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s): one declaration per concept (issue 32)")
        return 1
    print(f"one declaration per concept: {len(CONCEPTS)} concepts, {len(RETIRED)} retired names, "
          f"{len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
