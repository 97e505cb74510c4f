"""Composed releases from Python: the demo's hello-child (imports from hello-world) and the
hello-world 1.1.0 edit, read through a registry, by parent ID, and with sources_root."""

import os
import shutil

import numpy as np
import pytest
import timef


@pytest.fixture(scope="module")
def child(registry):
    return os.path.join(str(registry), "timef", "hello-child", "1.0.0")


def test_registry_lists_and_resolves(registry):
    reg = timef.Registry(registry)
    assert {"timef/hello-world", "timef/hello-child"} <= set(reg.datasets())
    assert reg.versions("timef/hello-world") == ["1.0.0", "1.1.0"]
    assert reg.latest("timef/hello-world") == "1.1.0"
    assert reg.resolve("timef/hello-world@1.0.0").endswith("hello-world/1.0.0")
    with pytest.raises(timef.NotFoundError):
        reg.resolve("timef/hello-world@9.9.9")
    with reg.open("timef/hello-child") as r:
        assert r.manifest["payload_sources"]


def test_imported_values_come_from_the_parent(registry, child):
    with timef.TimeFReader.open(child) as c, timef.open("timef/hello-world@1.0.0",
                                                        root=registry) as p:
        parent_ids = {}
        for record in c.iter_records():
            if record.import_marker:
                parent_ids[record.id] = record.import_marker["parent_id"]
        assert parent_ids, "the demo child imports records"
        for local, pid in parent_ids.items():
            mine = c.get(timef.Record, local)
            theirs = p.get(timef.Record, pid)
            assert [s.name for s in mine.signals] == [s.name for s in theirs.signals]
            for a, b in zip(mine.signals, theirs.signals):
                x, y = a.to_numpy(), b.to_numpy()
                if x.dtype != object:
                    assert np.asarray(x).tobytes() == np.asarray(y).tobytes()
        assert c.counters()["values_files_opened"] >= 1
        c.verify()  # own files, then the parent's pinned files


def test_get_by_parent_id(child):
    with timef.TimeFReader.open(child) as r:
        record = next(rec for rec in r.iter_records() if rec.import_marker)
        signal = record.signals[0]
        alias = record.import_marker["alias"]
        parent_record_id = record.import_marker["parent_id"]
        got = r.get(timef.Record, parent_record_id, parent=timef.ParentAlias(alias))
        assert got.id == record.id
        parent_signal = signal.import_marker["parent_id"]
        s = r.get(timef.Signal, parent_signal, parent=timef.ParentAlias(alias))
        assert s.id == signal.id
        ref = timef.DatasetRef.parse("timef/hello-world@1.0.0")
        assert r.get(timef.Signal, parent_signal, parent=ref).id == signal.id
        a, b = r.get_many(timef.Record, [parent_record_id, parent_record_id],
                          parent=timef.ParentAlias(alias))
        assert a is b
        with pytest.raises(timef.ValidationError):
            r.get(timef.Signal, parent_signal, parent=alias)  # a plain str could be either
        with pytest.raises(timef.NotFoundError):
            r.get(timef.Signal, parent_signal, parent=timef.ParentAlias("nobody"))
        with pytest.raises(timef.NotFoundError):
            r.get(timef.Record, 10**6, parent=timef.ParentAlias(alias))
        with pytest.raises(timef.ValidationError):
            timef.ParentAlias("Not An Alias")


def test_sources_root_for_a_moved_child(registry, child, tmp_path):
    moved = tmp_path / "elsewhere" / "child"
    shutil.copytree(child, moved)
    with pytest.raises(timef.ValidationError):
        timef.TimeFReader.open(moved)  # its payload sources cannot be found
    with timef.TimeFReader.open(moved, sources_root=registry) as r:
        assert len(r.record_ids()) > 0
        r.verify()


def test_edit_keeps_ids(registry):
    with timef.open("timef/hello-world@1.0.0", root=registry) as old, \
            timef.open("timef/hello-world@1.1.0", root=registry) as new:
        before, after = set(old.record_ids()), set(new.record_ids())
        assert before - after, "the edit removes a record"
        assert after - before and min(after - before) > max(before), "new IDs above the old"
        for rid in before & after:
            assert new.get(timef.Record, rid).metadata == old.get(timef.Record, rid).metadata


def test_gc_removes_only_stale_staging(tmp_path):
    stale = tmp_path / "org" / "name" / ("1.0.0.tmp-" + "0" * 32)
    stale.mkdir(parents=True)
    (stale / "half.parquet").write_bytes(b"x")
    keep = tmp_path / "org" / "name" / "notes"
    keep.mkdir()
    assert [os.path.basename(d["dir"]) for d in timef.gc(tmp_path, older_than_s=0, dry_run=True)] \
        == [stale.name]
    assert stale.exists()
    removed = timef.gc(tmp_path, older_than_s=0)
    assert len(removed) == 1 and not stale.exists() and keep.exists()


def test_records_from_another_dataset_get_new_ids(registry, tmp_path):
    # docs/format.md §4 "Other dataset": read from hello-world, written into another dataset
    # without an import, the records are new there; their values are still read from the parent.
    with timef.open("timef/hello-world@1.0.0", root=registry) as p:
        ids = p.record_ids()
        picked = [p.get(timef.Record, i) for i in reversed(ids[:2])]
        assert all(r.read_from_dataset == "timef/hello-world" for r in picked)
        before = [s.to_numpy() for r in picked for s in r.signals]
        ds = timef.Dataset("tests/borrowed", "1.0.0")
        for r in picked:
            ds.add_record(r)
        release = timef.write(ds, tmp_path, card={"name": "Borrowed", "description": "test",
                                                   "license": "CC-BY-4.0"})
        assert [r.id for r in picked] == [1, 2]
        assert picked[0].read_from_dataset == "tests/borrowed"
    with timef.TimeFReader.open(release, sources_root=registry) as r:
        assert r.manifest["files"]["time_series"] == []
        assert sorted(r.record_ids()) == [1, 2]
        after = [s.to_numpy() for i in (1, 2) for s in r.get(timef.Record, i).signals]
        for x, y in zip(before, after):
            if x.dtype != object:
                assert np.asarray(x).tobytes() == np.asarray(y).tobytes()
