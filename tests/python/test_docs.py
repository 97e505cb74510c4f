"""Every ```python block of docs/python.md runs as written."""

import os
import re

import pytest
from conftest import SOURCE_DIR

DOC = os.path.join(SOURCE_DIR, "docs", "python.md")
BLOCKS = re.findall(r"```python\n(.*?)```", open(DOC, encoding="utf-8").read(), re.S)


def test_the_guide_has_examples():
    assert len(BLOCKS) >= 10


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_block_runs(index, hello, registry, tmp_path):
    code = compile(BLOCKS[index], f"docs/python.md block {index + 1}", "exec")
    exec(code, {"release_dir": hello, "root": str(registry), "tmp": str(tmp_path),
                "__name__": "__docs__"})


def _names_table():
    """{first cell: [values]} of the table under "### Names"."""
    text = open(DOC, encoding="utf-8").read()
    section = text.split("### Names", 1)[1].split("\n#", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[1].startswith("`"):
            rows[cells[0]] = re.findall(r"`([^`]*)`", cells[1])
    return rows


def _card_with(tmp_path, **fields):
    import timef
    card = {"name": "n", "description": "d", "license": "CC0-1.0", **fields}
    return lambda: timef.write(timef.Dataset("docs/names", "1.0.0"), str(tmp_path), card=card)


def test_the_names_table_lists_what_the_library_allows(reader, tmp_path):
    # Each row against the library's own list, read from the message an unknown name raises.
    import timef
    calls = {
        "`split`": lambda: timef.ClassificationTask(split="?"),
        "card `license`": _card_with(tmp_path, license="?"),
        "card `domains`": _card_with(tmp_path, domains=["?"]),
        "card `access`": _card_with(tmp_path, access="?"),
        "card `value_encoding`": _card_with(tmp_path, value_encoding="?"),
        "`Spec(dtype=)`": lambda: timef.Spec("x", dtype="?"),
        "`Spec(modality=)`": lambda: timef.Spec("x", modality="?"),
        "`task_type=`": lambda: reader.read_tasks(task_type="?"),
        "task `input_modalities`": lambda: timef.ClassificationTask(input_modalities=["?"]),
        "`TemporalLocalizationTask(mode=)`": lambda: timef.TemporalLocalizationTask(mode="?"),
        "`write(values_backend=)`": lambda: timef.write(
            timef.Dataset("docs/names", "1.0.0"), str(tmp_path),
            card={"name": "n", "description": "d", "license": "CC0-1.0"}, values_backend="?"),
    }
    table = _names_table()
    assert len(table) == len(calls), sorted(table)
    for cell, values in table.items():
        key = next(k for k in calls if cell.startswith(k))
        with pytest.raises(timef.ValidationError) as e:
            calls[key]()
        allowed = re.search(r"\(expected one of ([^)]*)\)", str(e.value))
        assert allowed, f"{cell}: {e.value}"
        assert values == allowed.group(1).split(", "), cell
