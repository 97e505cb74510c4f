"""Fixtures of the Python tests: the hello-world demo release written by the timef CLI (so the
release comes from the C++ writer, not from the module under test)."""

import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

CLI = os.environ.get("TIMEF_CLI", "timef")
SOURCE_DIR = os.environ.get("TIMEF_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


@pytest.fixture(scope="session")
def registry(tmp_path_factory):
    root = tmp_path_factory.mktemp("registry")
    subprocess.run([CLI, "demo", str(root)], check=True, stdout=subprocess.DEVNULL)
    return root


@pytest.fixture(scope="session")
def hello(registry):
    return str(registry / "timef" / "hello-world" / "1.0.0")


@pytest.fixture
def reader(hello):
    import timef
    with timef.TimeFReader.open(hello) as r:
        yield r
