"""timef.dask.import_files (docs/importing.md "On a Dask cluster", docs/python.md) on a local Dask
distributed cluster of two worker processes: the release reads exactly like timef.import_files of
the same files (records, IDs, signals, values, axes, metadata, annotations), its values stay in
the part releases it pins, and a bad input publishes nothing and leaves no part behind."""

import os
import subprocess

import distributed  # Debian python3-distributed (scripts/setup-deps.sh)
import numpy as np
import pytest

import timef
import timef.dask

BINARY_DIR = os.environ.get("TIMEF_BINARY_DIR", "build")
FIXTURE = os.path.join(BINARY_DIR, "tests", "importers", "edf_fixture")
CARD = {"name": "Dask import", "description": "files imported on a cluster",
        "license": "CC0-1.0"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("dask")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None, host="127.0.0.1",
                                  local_directory=str(scratch)) as cluster, \
            distributed.Client(cluster) as client:
        yield client


@pytest.fixture(scope="module")
def edf_inputs(tmp_path_factory):
    out = tmp_path_factory.mktemp("edf")
    subprocess.run([FIXTURE, str(out)], check=True)
    return [out / "night.edf", out / "day.bdf"]


@pytest.fixture(scope="module")
def csv_inputs(tmp_path_factory):
    out = tmp_path_factory.mktemp("csv")
    rng = np.random.default_rng(7)
    paths = []
    for i in range(5):
        n = 300 + 50 * i
        if i % 2:
            time = np.cumsum(rng.integers(1, 9000, n)) / 1e4  # irregular
        else:
            time = np.arange(n) / 128.0
        ecg = rng.normal(0, 1, n)
        resp = rng.normal(0, 1, n)
        resp[rng.choice(n, 20, replace=False)] = np.nan
        path = out / f"s{i}.csv"
        with open(path, "w") as f:
            f.write("time,ECG II (mV),Resp (mV)\n")
            for t, a, b in zip(time, ecg, resp):
                f.write(f"{t!r},{a!r},{'' if np.isnan(b) else repr(b)}\n")
        paths.append(path)
    return paths


def as_plain(values):
    """(data, mask) of a numpy or masked array, comparable bit for bit."""
    mask = np.ma.getmaskarray(values)
    data = np.ma.getdata(values).copy()
    data[mask] = 0
    return data.tobytes(), mask.tobytes()


def assert_same_contents(got_dir, want_dir):
    with timef.TimeFReader.open(got_dir) as got, timef.TimeFReader.open(want_dir) as want:
        got.verify()
        mine, theirs = list(got.iter_records()), list(want.iter_records())
        assert len(mine) == len(theirs) > 0
        for a, b in zip(mine, theirs):
            assert a.id == b.id
            assert a.metadata == b.metadata
            assert a.start_time_us == b.start_time_us
            assert [s.name for s in a.sources] == [s.name for s in b.sources]
            assert len(a.signals) == len(b.signals)
            for x, y in zip(a.signals, b.signals):
                assert (x.id, x.name, x.n_values, x.metadata) == (y.id, y.name, y.n_values,
                                                                  y.metadata)
                assert (x.spec.spec_type, x.spec.unit, x.spec.dtype, x.spec.nullable) == (
                    y.spec.spec_type, y.spec.unit, y.spec.dtype, y.spec.nullable)
                assert x.axis.type == y.axis.type
                assert np.array_equal(x.time_offsets_us(), y.time_offsets_us())
                assert as_plain(x.to_numpy()) == as_plain(y.to_numpy())
            # Spans compare by value (TimePoint, TimeInterval).
            assert [(n.key, n.value, n.span) for n in a.annotations] == [
                (n.key, n.value, n.span) for n in b.annotations]
        return got.manifest


def test_csv_on_two_workers_reads_like_a_single_machine_import(client, csv_inputs, tmp_path):
    root = tmp_path / "root"
    single = timef.import_files("csv", csv_inputs, root=root, dataset="tests/single",
                                version="1.0.0", card=CARD, compression_level=1)
    release = timef.dask.import_files(client, "csv", csv_inputs, root=root,
                                      dataset="tests/cluster", version="1.0.0", card=CARD,
                                      compression_level=1)
    assert release == str(root / "tests" / "cluster" / "1.0.0")
    manifest = assert_same_contents(release, single)
    # The values stay in the two part releases (3 + 2 files), which the release pins.
    parts = sorted(manifest["payload_sources"])
    assert len(parts) == 2
    for k, ref in enumerate(parts):
        dataset, version = ref.split("@")
        assert dataset.startswith("tests/cluster.import-1.0.0-") and version == f"0.0.{k}"
        assert os.path.isdir(root / dataset / version)
    with timef.TimeFReader.open(release) as r:
        assert [rec.import_marker["alias"] for rec in r.iter_records()] == [
            "part0", "part0", "part0", "part1", "part1"]


def test_edf_with_annotations_one_part_per_file(client, edf_inputs, tmp_path):
    root = tmp_path / "root"
    single = timef.import_files("edf", edf_inputs, root=root, dataset="tests/single",
                                version="1.0.0", card=CARD, compression_level=1)
    release = timef.dask.import_files(client, "edf", edf_inputs, root=root,
                                      dataset="tests/cluster", version="1.0.0", card=CARD,
                                      partitions=2, compression_level=1)
    manifest = assert_same_contents(release, single)
    assert len(manifest["payload_sources"]) == 2
    with timef.TimeFReader.open(release) as r:
        assert sum(len(rec.annotations) for rec in r.iter_records()) > 0


def test_a_bad_file_publishes_nothing_and_removes_the_parts(client, csv_inputs, tmp_path):
    bad = tmp_path / "ragged.csv"
    bad.write_text("time,ECG II (mV),Resp (mV)\n0,1,2\n1,2\n")
    root = tmp_path / "root"
    with pytest.raises(timef.FormatError) as err:
        timef.dask.import_files(client, "csv", [*csv_inputs[:3], bad], root=root,
                                dataset="tests/bad", version="1.0.0", card=CARD)
    assert f"{bad}: line 3: " in str(err.value)
    tests = root / "tests"
    assert not tests.exists() or os.listdir(tests) == []
    with pytest.raises(timef.ValidationError, match="no input files"):
        timef.dask.import_files(client, "csv", [], root=root, dataset="tests/bad",
                                version="1.0.0", card=CARD)


def test_worker_warnings_reach_the_client(client, tmp_path):
    path = tmp_path / "odd.csv"
    path.write_text("t,x (furlongs)\n0,1\n1,2\n")
    with pytest.warns(timef.importers.ImportedDataWarning, match="furlongs"):
        timef.dask.import_files(client, "csv", [path], root=tmp_path / "root",
                                dataset="tests/odd", version="1.0.0", card=CARD)
