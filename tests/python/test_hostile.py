"""A hostile release is contained (issue 31, item 5), from Python: absurd batch sizes reserve for
what is read, and a manifest.json that is a FIFO or /dev/zero is a FileError, never a hang."""

import os

import pytest
import timef


@pytest.mark.parametrize("size", [10**8, 2**32, 2**62, 2**63 - 1, 2**64, 10**30])
def test_huge_batch_size_reads_what_is_there(reader, size):
    ids = reader.record_ids()
    assert [r.id for r in reader.iter_records(batch_size=size)] == ids
    tasks = [t.id for t in reader.read_tasks()]
    assert [t.id for t in reader.iter_tasks(batch_size=size)] == tasks
    assert sum(len(b) for b, _ in reader.iter_values(batch_size=size)) == len(reader.signal_ids())


@pytest.mark.parametrize("bad", [0, -1, -(2**70), 2.5, True, "8", None])
def test_bad_batch_size_is_a_validation_error(reader, bad):
    for call in (reader.iter_records, reader.iter_tasks, reader.iter_values):
        with pytest.raises(timef.ValidationError) as e:
            next(iter(call(batch_size=bad)), None)
        assert "batch_size" in str(e.value)


@pytest.mark.parametrize("kind", ["fifo", "dev_zero"])
def test_special_manifest_is_a_file_error(hello, tmp_path, kind):
    release = tmp_path / "release"
    release.mkdir()
    manifest = release / "manifest.json"
    if kind == "fifo":
        os.mkfifo(manifest)
    else:
        os.symlink("/dev/zero", manifest)
    with pytest.raises(timef.FileError) as e:
        timef.TimeFReader.open(str(release))
    assert "manifest.json" in str(e.value)


AXIS = timef.TimeAxis.ordinal()


@pytest.mark.parametrize(
    "make",
    [
        lambda: timef.Dataset("tests/lone\ud800", "1.0.0"),
        lambda: timef.Spec("x\udc80", dtype="float32"),
        lambda: timef.Signal("lead\ud800", timef.Spec("x", dtype="float32"), AXIS, [1.0]),
        lambda: timef.Spec("x", dtype="float32", unit="mV\ud834"),
    ],
    ids=["dataset_id", "spec_type", "signal_name", "unit"],
)
def test_lone_surrogate_is_a_validation_error(make):
    # Python allows a lone surrogate in a str; UTF-8 cannot hold it. One conversion refuses it
    # for every str argument, naming the code point (not UnicodeEncodeError, not pybind's
    # "incompatible function arguments").
    with pytest.raises(timef.ValidationError, match=r"lone surrogate U\+D[89A-F][0-9A-F]{2}"):
        make()


def test_decode_budget_bounds_decoded_pages(hello):
    # Decoded buffers come out of one budget per reader (docs/format.md §7.7): a page that does
    # not fit is a FormatError naming the shard, also after pickling (the copy keeps the budget).
    import pickle
    with timef.TimeFReader.open(hello) as full:
        ids = [s.id for r in full.iter_records() for s in r.signals
               if full.signal_values(s.id).has_values]
        assert all(v is not None for v in full.load_values(ids))
    with timef.TimeFReader.open(hello, decode_budget_bytes=16) as tiny:
        for r in (tiny, pickle.loads(pickle.dumps(tiny))):
            with pytest.raises(timef.FormatError, match="decode budget") as e:
                r.load_values(ids)
            assert "time_series" in str(e.value)
    with pytest.raises(timef.ValidationError, match="decode_budget_bytes"):
        timef.TimeFReader.open(hello, decode_budget_bytes=0)
