"""The version API (docs/python.md "Opening a version", "The client"): open_local_version's checks,
a registry's open_version, TimeFReader(version) and timef.Client, each read equal to
timef.open(dir).read()."""

import json
import os
import pickle
import shutil

import pydump
import pytest
import timef

CHILD = os.path.join("timef", "hello-child", "1.0.0")  # payload source: timef/hello-world@1.0.0
PARENT = os.path.join("timef", "hello-world", "1.0.0")


def dumped(dataset):
    return pydump.normalized(pydump.dump(dataset, values=True))


def expected(path):
    with timef.open(path) as reader:
        return dumped(reader.read())


@pytest.fixture
def damaged(registry, tmp_path):
    """A private copy of the demo registry, for a test that damages it."""
    root = tmp_path / "registry"
    shutil.copytree(registry, root)
    return root


def manifest_of(path):
    with open(os.path.join(path, "manifest.json")) as f:
        return json.load(f)


def first_pinned_file(root):
    pins = manifest_of(root / CHILD)["payload_sources"]["timef/hello-world@1.0.0"]
    return root / PARENT / pins[0]["path"]


def test_open_local_version_and_read_it(registry):
    version = timef.open_local_version(registry / CHILD)
    assert isinstance(version, timef.DatasetVersion)
    assert str(version.ref) == "timef/hello-child@1.0.0"
    assert version.manifest["dataset_id"] == "timef/hello-child"
    assert version.location == str(registry / CHILD)
    assert not version.remote
    assert os.path.samefile(version.sources_root, registry)
    sources = version.payload_sources
    assert list(sources) == ["timef/hello-world@1.0.0"]
    assert os.path.samefile(sources["timef/hello-world@1.0.0"], registry / PARENT)
    with timef.TimeFReader(version) as reader:
        counters = reader.counters()
        assert counters["catalog_opens"] == 0 and counters["values_files_opened"] == 0
        assert dumped(reader.read()) == expected(str(registry / CHILD))
        # A reader of a version pickles (into a DataLoader worker) and reopens.
        again = pickle.loads(pickle.dumps(reader))
        assert again.record_ids() == reader.record_ids()
        again.close()


def test_a_reader_of_a_version_checks_nothing_again(damaged):
    version = timef.open_local_version(damaged / CHILD)
    os.remove(first_pinned_file(damaged))
    with timef.TimeFReader(version) as reader:  # opened: nothing looked for again
        assert reader.record_ids()
    with pytest.raises(timef.MissingFileError):
        timef.open_local_version(damaged / CHILD)


def test_missing_listed_file(damaged):
    listed = manifest_of(damaged / PARENT)["files"]["time_series"][0]["path"]
    os.remove(damaged / PARENT / listed)
    with pytest.raises(FileNotFoundError) as e:
        timef.open_local_version(damaged / PARENT)
    assert isinstance(e.value, timef.MissingFileError)
    assert listed in str(e.value)
    os.remove(damaged / PARENT / "control.duckdb")
    with pytest.raises(timef.MissingFileError):
        timef.open_local_version(damaged / PARENT)


def test_wrong_size(damaged):
    with open(damaged / PARENT / "control.duckdb", "ab") as f:
        f.write(b"extra")
    with pytest.raises(timef.FileError) as e:
        timef.open_local_version(damaged / PARENT)
    assert not isinstance(e.value, timef.MissingFileError)
    assert "control.duckdb" in str(e.value) and "size" in str(e.value)


def test_missing_payload_source(damaged):
    shutil.rmtree(damaged / PARENT)
    with pytest.raises(timef.MissingFileError) as e:
        timef.open_local_version(damaged / CHILD)
    assert "timef/hello-world@1.0.0" in str(e.value)


def test_source_that_pins_a_file_otherwise(damaged):
    m = manifest_of(damaged / PARENT)
    pinned = manifest_of(damaged / CHILD)["payload_sources"]["timef/hello-world@1.0.0"][0]["path"]
    for part in m["files"]["time_series"] + m["files"]["payloads"]:
        if part["path"] == pinned:
            part["checksum"] = "sha256:" + "e" * 64
    with open(damaged / PARENT / "manifest.json", "w") as f:
        json.dump(m, f, indent=2)
    with pytest.raises(timef.FormatError) as e:
        timef.open_local_version(damaged / CHILD)
    assert not isinstance(e.value, timef.FileError)
    assert "pin differs" in str(e.value)


def test_pinned_file_of_a_local_source(damaged):
    pinned = first_pinned_file(damaged)
    with open(pinned, "ab") as f:
        f.write(b"extra")
    with pytest.raises(timef.FileError) as e:
        timef.open_local_version(damaged / CHILD)
    assert pinned.name in str(e.value) and not isinstance(e.value, timef.MissingFileError)


def test_missing_or_invalid_manifest(damaged):
    os.remove(damaged / PARENT / "manifest.json")
    with pytest.raises(FileNotFoundError):
        timef.open_local_version(damaged / PARENT)
    other = damaged / "timef" / "hello-world" / "1.1.0"
    (other / "manifest.json").write_text('{"format": ')
    with pytest.raises(timef.ManifestError):
        timef.open_local_version(other)


def test_sources_root_needed(registry, tmp_path):
    moved = tmp_path / "child"
    shutil.copytree(registry / CHILD, moved)
    with pytest.raises(timef.ValidationError) as e:
        timef.open_local_version(moved)
    assert "sources_root" in str(e.value)
    version = timef.open_local_version(moved, sources_root=registry)
    assert version.sources_root == str(registry)
    with timef.TimeFReader(version) as reader:
        assert dumped(reader.read()) == expected(str(registry / CHILD))


def test_registry_open_version_latest_and_exact(registry):
    reg = timef.open_registry(registry)
    assert not reg.remote
    assert str(reg.open_version("timef/hello-world").ref) == "timef/hello-world@1.1.0"
    exact = reg.open_version("timef/hello-world@1.0.0")
    assert str(exact.ref) == "timef/hello-world@1.0.0"
    with timef.TimeFReader(exact) as reader:
        assert dumped(reader.read()) == expected(str(registry / PARENT))
    with pytest.raises(timef.NotFoundError):
        reg.open_version("timef/hello-world@9.9.9")
    with pytest.raises(timef.ValidationError):
        reg.open_version("timef/hello-world/1.0.0")


def test_client_open_and_load(registry, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    client = timef.Client(cache_dir=tmp_path / "cache", registries=[empty, registry])
    assert client.registries == [str(empty), str(registry)]
    assert client.cache_dir == str(tmp_path / "cache")
    want = expected(str(registry / CHILD))
    with client.open("timef/hello-child") as reader:
        assert dumped(reader.read()) == want
    assert dumped(client.load("timef/hello-child@1.0.0")) == want
    with pytest.raises(timef.NotFoundError) as e:
        client.open("timef/hello-child@7.0.0")
    assert str(empty) in str(e.value)
    with pytest.raises(timef.ValidationError):
        timef.Client(registries=str(registry))


def test_client_registries_from_the_environment(registry, tmp_path, monkeypatch):
    monkeypatch.setenv("TIMEF_REGISTRIES", f"{tmp_path},{registry}")
    client = timef.Client()
    assert client.registries == [str(tmp_path), str(registry)]
    assert str(client.open_version("timef/hello-world").ref) == "timef/hello-world@1.1.0"
    monkeypatch.delenv("TIMEF_REGISTRIES")
    monkeypatch.delenv("TIMEF_ROOT", raising=False)
    with pytest.raises(timef.ValidationError):
        timef.Client()
