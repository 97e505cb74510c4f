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
