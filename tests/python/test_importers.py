"""timef.importers.read_edf and timef.import_files (docs/importing.md, docs/python.md) on files
written by EDFlib (tests/importers/edf_fixture): values against EDFlib's digital samples through
the documented formula, annotations, metadata, the unknown-unit warning and typed errors."""

import os
import subprocess

import numpy as np
import pytest

import timef

BINARY_DIR = os.environ.get("TIMEF_BINARY_DIR", "build")
FIXTURE = os.path.join(BINARY_DIR, "tests", "importers", "edf_fixture")
CARD = {"name": "EDF import", "description": "EDFlib files", "license": "CC0-1.0"}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    out = tmp_path_factory.mktemp("edf")
    subprocess.run([FIXTURE, str(out)], check=True)
    return out


def test_read_edf_values_annotations_and_metadata(inputs):
    record = timef.importers.read_edf(inputs / "night.edf")
    names = [s.name for s in record.signals]
    assert names == ["EEG Fpz-Cz", "EOG horizontal", "Resp oro-nasal", "Temp rectal"]
    assert [s.spec.spec_type for s in record.signals] == ["eeg", "eog", "respiration",
                                                          "temperature"]
    eeg = record.signals[0]
    assert eeg.spec.unit == "microvolt" and eeg.spec.dtype == "float32"
    want = np.loadtxt(inputs / "night.ch0.txt", dtype=np.float32)
    got = eeg.to_numpy()
    assert got.dtype == np.float32 and np.array_equal(got, want)
    assert record.start_time_us == 1615734566123400
    labels = [(a.key, a.value) for a in record.annotations]
    assert ("label", "Recording starts") in labels
    assert ("label_interval", "Sleep stage W") in labels
    stage = next(a for a in record.annotations if a.value == "Sleep stage W")
    assert (stage.span.start_us, stage.span.end_us) == (1_250_000, 1_750_000)
    assert record.metadata["edf"]["format"] == "EDF+C"
    assert record.metadata["source_sha256"].startswith("sha256:")
    assert eeg.metadata["edf"]["transducer"] == "AgAgCl electrode"


def test_keep_digital_and_spec_types(inputs):
    record = timef.importers.read_edf(inputs / "day.bdf", keep_digital=True,
                                      spec_types={"Temp rectal": "temp"}, checksum=False)
    eeg, temp = record.signals
    assert eeg.spec.dtype == "int32" and temp.spec.spec_type == "temp"
    assert "gain" in eeg.metadata and "offset" in eeg.metadata
    assert "source_sha256" not in record.metadata
    values = eeg.to_numpy()
    assert values.min() == -8388608 and values.max() == 8388607  # the fixture writes the extremes


def test_records_join_a_dataset_of_ones_own(inputs, tmp_path):
    ds = timef.Dataset("tests/edf-own", "1.0.0")
    ds.add_record(timef.importers.read_edf(inputs / "night.edf"))
    release = timef.write(ds, tmp_path, card=CARD, compression_level=1)
    with timef.TimeFReader.open(release) as r:
        r.verify()
        (record,) = list(r.iter_records())
        assert len(record.annotations) == 5


def test_import_files(inputs, tmp_path):
    stages = []
    release = timef.import_files("edf", [inputs / "night.edf", inputs / "day.bdf"], root=tmp_path,
                                 dataset="tests/edf", version="1.0.0", card=CARD,
                                 compression_level=1, progress=lambda *a: stages.append(a[0]))
    assert release == str(tmp_path / "tests" / "edf" / "1.0.0")
    assert "values" in stages
    with timef.TimeFReader.open(release) as r:
        records = list(r.iter_records())
        assert [rec.metadata["source_file"] for rec in records] == [
            str(inputs / "night.edf"), str(inputs / "day.bdf")]
        want = np.loadtxt(inputs / "night.ch0.txt", dtype=np.float32)
        assert np.array_equal(records[0].signals[0].to_numpy(), want)
    with pytest.raises(timef.ValidationError):
        timef.import_files("edf", inputs / "night.edf", root=tmp_path, dataset="tests/edf",
                           version="1.0.1", card=CARD, chunk_size=3)
    assert not (tmp_path / "tests" / "edf" / "1.0.1").exists()


def test_import_files_jobs_give_the_same_bytes(inputs, tmp_path):
    # Small row groups, so that with 2 jobs many are compressed in the background.
    paths = [inputs / "night.edf", inputs / "day.bdf"]
    releases = [timef.import_files("edf", paths, root=tmp_path / f"jobs{jobs}", dataset="tests/edf",
                                   version="1.0.0", card=CARD, jobs=jobs, compression_level=1,
                                   row_group_target_bytes=256, data_page_target_bytes=64)
                for jobs in (1, 2)]

    def values_files(release):
        out = {}
        for dirpath, _, files in os.walk(release):
            for name in files:
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, release)
                if rel.startswith("time_series"):
                    with open(path, "rb") as f:
                        out[rel] = f.read()
        return out

    one, two = (values_files(r) for r in releases)
    assert one and one == two
    # No compression_level: the import's own default, 3 (as `timef import`), not the writer's 19.
    assert timef.importers.IMPORT_COMPRESSION_LEVEL == 3
    by_level = {level: values_files(timef.import_files(
        "edf", paths, root=tmp_path / f"level{level}", dataset="tests/edf", version="1.0.0",
        card=CARD, **({} if level is None else {"compression_level": level})))
        for level in (None, 3, 19)}
    assert by_level[None] == by_level[3]
    assert by_level[None] != by_level[19]
    with pytest.raises(ValueError, match="jobs=2 and threads=1"):
        timef.import_files("edf", paths, root=tmp_path / "both", dataset="tests/edf",
                           version="1.0.0", card=CARD, jobs=2, threads=1)


def test_unknown_unit_warns(inputs, tmp_path):
    data = bytearray((inputs / "night.edf").read_bytes())
    ns = int(data[252:256])
    at = 256 + ns * (16 + 80)  # physical dimension of channel 0
    assert data[at:at + 8] == b"uV      "
    data[at:at + 8] = b"furlong "
    path = tmp_path / "unit.edf"
    path.write_bytes(bytes(data))
    with pytest.warns(timef.importers.ImportedDataWarning, match="furlong"):
        record = timef.importers.read_edf(path)
    assert record.signals[0].spec.unit is None


def test_errors_name_file_and_field(inputs, tmp_path):
    with pytest.raises(timef.FormatError) as e:
        timef.importers.read_edf(inputs / "bad.edf")
    assert e.value.path == str(inputs / "bad.edf")
    assert e.value.where == "digital minimum[1]"
    with pytest.raises(timef.FileError):
        timef.importers.read_edf(tmp_path / "missing.edf")
    with pytest.raises(timef.FormatError):
        timef.import_files("edf", [inputs / "night.edf", inputs / "bad.edf"], root=tmp_path,
                           dataset="tests/bad", version="1.0.0", card=CARD)
    assert not (tmp_path / "tests" / "bad").exists()
    with pytest.raises(timef.ValidationError, match="import format"):
        timef.import_files("nosuchformat", [inputs / "night.edf"], root=tmp_path, dataset="tests/bad",
                           version="1.0.0", card=CARD)


def test_modality_table():
    assert ("EEG", "eeg", "EEG") in timef.importers.MODALITY_TABLE
