"""Legacy releases from Python (docs/format.md §15): timef.open on a legacy directory and
timef.upgrade, on the DuckDB-written fixture of tests/legacy."""
import os
import subprocess

import numpy as np
import pytest

import timef


@pytest.fixture
def legacy(tmp_path):
    fixture = os.path.join(os.environ["TIMEF_BINARY_DIR"], "tests", "legacy", "legacy_fixture")
    directory = tmp_path / "root" / "legacy" / "fixture" / "1.0.0"
    subprocess.run([fixture, str(directory)], check=True)
    return directory


def _bits(array):
    """Bit-exact form of an array (floats by their bytes: -0.0 and NaN compare as stored)."""
    return array.tobytes() if array.dtype.kind in "fiub" else list(array)


def test_open_reads_a_legacy_directory(legacy):
    with timef.TimeFReader.open(legacy) as reader:
        records = list(reader.iter_records())
        assert [r.id for r in records] == [1, 2, 3]
        assert records[0].metadata["timef.legacy.id"] == "rec-1"
        lead = next(s for s in records[0].signals if s.id == 1).to_numpy()
        assert lead.dtype == np.float32 and len(lead) == 7
        assert np.signbit(lead[1]) and lead[1] == 0 and np.isinf(lead[2]) and np.isnan(lead[6])
        reader.verify()


def test_upgrade_writes_the_same_objects(legacy, tmp_path):
    release_dir, warnings = timef.upgrade(legacy, tmp_path / "out")
    assert release_dir == str(tmp_path / "out" / "legacy" / "fixture" / "1.0.0")
    assert len(warnings) == 2 and "frobnicate" in warnings[0]
    with timef.TimeFReader.open(legacy) as a, timef.TimeFReader.open(release_dir) as b:
        for ra, rb in zip(a.iter_records(), b.iter_records()):
            assert ra.metadata == rb.metadata
            for sa, sb in zip(ra.signals, rb.signals):
                assert sa.id == sb.id
                assert _bits(sa.to_numpy()) == _bits(sb.to_numpy())
    with pytest.raises(timef.ValidationError):
        timef.upgrade(legacy, tmp_path / "root")
