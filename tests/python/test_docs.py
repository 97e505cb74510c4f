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
