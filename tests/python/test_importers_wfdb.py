"""timef.importers.read_wfdb and timef.import_files("wfdb") (docs/importing.md, docs/python.md) on
records written by tests/importers/wfdb_fixture (a WFDB writer made from PhysioNet's format
documentation), and the real ECG Debian's python3-scipy ships (scipy/misc/ecg.dat, an excerpt of
MIT-BIH Arrhythmia Database record 208 at 360 Hz) written as a format-212 record, imported and
compared value by value with scipy's own reading of it."""

import os
import subprocess
import warnings

import numpy as np
import pytest

import timef

BINARY_DIR = os.environ.get("TIMEF_BINARY_DIR", "build")
FIXTURE = os.path.join(BINARY_DIR, "tests", "importers", "wfdb_fixture")
CARD = {"name": "WFDB import", "description": "WFDB records", "license": "CC0-1.0"}


def scipy_ecg():
    """scipy's electrocardiogram(): the digital samples and scipy's physical values."""
    import scipy.misc
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        physical = scipy.misc.electrocardiogram()
    path = os.path.join(os.path.dirname(scipy.misc.__file__), "ecg.dat")
    with np.load(path) as npz:
        digital = npz["ecg"]
    return digital, physical


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    out = tmp_path_factory.mktemp("wfdb")
    digital, _ = scipy_ecg()
    raw = out / "ecg_digital.bin"
    digital.astype("<i2").tofile(raw)
    subprocess.run([FIXTURE, str(out / "in"), str(raw)], check=True)
    return out / "in"


def test_scipy_ecg_as_a_212_record_matches_scipy_value_by_value(inputs, tmp_path):
    digital, physical = scipy_ecg()
    assert digital.shape == (108000,)
    record = timef.importers.read_wfdb(inputs / "208")
    (signal,) = record.signals
    assert signal.name == "MLII" and signal.spec.unit == "millivolt"
    assert signal.metadata["wfdb"]["format"] == 212
    assert signal.metadata["wfdb"]["baseline"] == 1024
    got = signal.to_numpy()
    # scipy computes (ecg - 1024) / 200.0 in float64: the float32 of that, exactly.
    assert got.dtype == np.float32 and got.shape == (108000,)
    assert np.array_equal(got, physical.astype(np.float32))
    # 360 Hz: the axis's step 360 is one second.
    assert record.metadata["wfdb"]["frequency"] == "360"
    # Through a release, and the digital integers with keep_digital.
    release = timef.import_files("wfdb", [inputs / "208.hea"], root=tmp_path, dataset="tests/ecg",
                                 version="1.0.0", card=CARD, compression_level=1)
    with timef.TimeFReader.open(release) as r:
        r.verify()
        (back,) = list(r.iter_records())
        assert np.array_equal(back.signals[0].to_numpy(), physical.astype(np.float32))
    kept = timef.importers.read_wfdb(inputs / "208", keep_digital=True)
    values = kept.signals[0].to_numpy()
    assert values.dtype == np.int16 and np.array_equal(values, digital.astype(np.int16))
    gain, offset = kept.signals[0].metadata["gain"], kept.signals[0].metadata["offset"]
    assert np.allclose(values * gain + offset, physical, rtol=0, atol=1e-12)


def test_read_wfdb_values_annotations_and_metadata(inputs):
    record = timef.importers.read_wfdb(inputs / "rec212.hea")
    assert [s.name for s in record.signals] == ["MLII", "ECG V1"]
    assert [s.spec.spec_type for s in record.signals] == ["signal", "ecg"]
    want = np.loadtxt(inputs / "rec212.ch0.txt", dtype=np.float32)
    assert np.array_equal(record.signals[0].to_numpy(), want)
    assert record.start_time_us == 1615710600 * 1_000_000  # 14/03/2021 08:30:00
    labels = [(a.key, a.value, a.metadata.get("aux")) for a in record.annotations]
    assert labels[0] == ("label", "+", "(N")
    assert ("label", "V", None) in labels
    assert ("label", "+", "(AFIB") in labels
    noise = next(a for a in record.annotations if a.value == "~")
    assert noise.metadata == {"annotator": "atr", "sample": 2500, "subtype": 1, "chan": 1,
                              "num": 0}
    assert noise.span.offset_us == 2500 * 1_000_000 // 360
    files = record.metadata["wfdb"]["annotation_files"]
    assert files[0]["mnemonics"]["V"] == "Premature ventricular contraction"
    assert record.metadata["source_sha256"].startswith("sha256:")
    assert [f["file"] for f in record.metadata["source_files"]] == [
        str(inputs / "rec212.dat"), str(inputs / "rec212.atr")]
    assert record.signals[1].metadata["wfdb"]["baseline"] == -12


def test_unknown_unit_warns_and_invalid_values_are_documented_nulls(inputs):
    with pytest.warns(timef.importers.ImportedDataWarning, match="'NU'"):
        record = timef.importers.read_wfdb(inputs / "rec16")
    assert record.signals[0].spec.unit is None
    assert record.signals[0].spec.nullable


def test_import_files_and_errors(inputs, tmp_path):
    with pytest.warns(timef.importers.ImportedDataWarning, match="'NU'"):
        release = timef.import_files("wfdb", [inputs / "rec212", inputs / "rec16"],
                                     root=tmp_path, dataset="tests/wfdb", version="1.0.0",
                                     card=CARD, compression_level=1)
    with timef.TimeFReader.open(release) as r:
        records = list(r.iter_records())
        assert len(records) == 2 and len(records[0].annotations) == 15
    with pytest.raises(timef.FormatError) as e:
        timef.importers.read_wfdb(inputs / "bad" / "rate0")
    assert e.value.path == str(inputs / "bad" / "rate0.hea")
    assert e.value.where == "line 3, sampling frequency"
    with pytest.raises(timef.MissingFileError):
        timef.importers.read_wfdb(inputs / "bad" / "missingdat")
    with pytest.raises(timef.MissingFileError):
        timef.importers.read_wfdb(inputs / "rec212", annotators=["qrs"])
    with pytest.raises(timef.FormatError, match="unknown annotation code 44"):
        timef.importers.read_wfdb(inputs / "bad" / "badcode")
    # A checksum mismatch surfaces when the values are read; nothing is published.
    with pytest.raises(timef.FormatError, match="checksum"):
        timef.import_files("wfdb", [inputs / "bad" / "checksum"], root=tmp_path,
                           dataset="tests/bad", version="1.0.0", card=CARD)
    assert not (tmp_path / "tests" / "bad" / "1.0.0").exists()
