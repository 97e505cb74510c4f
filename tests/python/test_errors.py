"""The error classes (docs/format.md errors) and the ID rules, each raised by a real failure."""

import errno
import json
import os
import pathlib
import shutil

import numpy as np
import pytest
import timef


def test_hierarchy():
    assert issubclass(timef.ValidationError, timef.Error)
    assert issubclass(timef.NotFoundError, timef.ValidationError)
    assert issubclass(timef.NotFoundError, LookupError)
    assert issubclass(timef.FormatError, timef.Error)
    assert issubclass(timef.FileError, timef.FormatError)
    assert issubclass(timef.MissingFileError, timef.FileError)
    assert issubclass(timef.MissingFileError, FileNotFoundError)
    assert issubclass(timef.ManifestError, timef.FormatError)
    assert issubclass(timef.ReaderError, timef.Error)
    assert not issubclass(timef.FormatError, timef.ValidationError)


def test_file_error_names_the_file(tmp_path):
    with pytest.raises(timef.FileError) as e:
        timef.TimeFReader.open(tmp_path)
    assert e.value.path.endswith("manifest.json") and "manifest.json" in str(e.value)


def test_a_missing_manifest_is_a_file_not_found_error(tmp_path):
    # The seed's promise: "a missing one raises FileNotFoundError", with timef's location.
    with pytest.raises(FileNotFoundError) as e:
        timef.TimeFReader.open(tmp_path / "nowhere")
    assert isinstance(e.value, timef.MissingFileError) and isinstance(e.value, timef.FileError)
    assert e.value.errno == errno.ENOENT
    assert e.value.path == str(tmp_path / "nowhere" / "manifest.json")
    assert str(e.value) == f"{tmp_path / 'nowhere' / 'manifest.json'}: no such file"


def test_a_missing_listed_file_is_a_file_not_found_error(tmp_path, hello):
    copy = tmp_path / "r"
    shutil.copytree(hello, copy)
    shard = next(p for p in (copy / "time_series").rglob("*.parquet"))
    shard.unlink()
    with pytest.raises(FileNotFoundError) as e:
        timef.TimeFReader.open(copy)
    assert isinstance(e.value, timef.MissingFileError) and e.value.path == str(shard)


def test_other_file_errors_are_not_file_not_found(tmp_path, hello):
    copy = tmp_path / "r"
    shutil.copytree(hello, copy)
    shard = next(p for p in (copy / "time_series").rglob("*.parquet"))
    shard.write_bytes(shard.read_bytes() + b"x")  # a size mismatch, not a missing file
    with pytest.raises(timef.FileError) as e:
        timef.TimeFReader.open(copy)
    assert not isinstance(e.value, FileNotFoundError)


def test_manifest_error(tmp_path, hello):
    copy = tmp_path / "r"
    shutil.copytree(hello, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["timef_format_version"] = "99.0"
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(timef.ManifestError) as e:
        timef.TimeFReader.open(copy)
    assert "manifest.json" in str(e.value)


def test_verify_catches_a_changed_file(tmp_path, hello):
    copy = tmp_path / "r"
    shutil.copytree(hello, copy)
    shard = next(p for p in (copy / "time_series").rglob("*.parquet"))
    data = bytearray(shard.read_bytes())
    data[len(data) // 2] ^= 0xFF
    shard.write_bytes(bytes(data))
    with timef.TimeFReader.open(copy) as r:
        with pytest.raises(timef.FileError) as e:
            r.verify()
    assert shard.name in str(e.value)


def test_format_error_on_a_corrupt_catalog(tmp_path, hello):
    copy = tmp_path / "r"
    shutil.copytree(hello, copy)
    catalog = copy / "control.duckdb"
    size = catalog.stat().st_size
    catalog.write_bytes(b"\0" * size)  # same size: open passes, the first query fails
    with timef.TimeFReader.open(copy) as r:
        with pytest.raises(timef.FormatError) as e:
            r.record_ids()
    assert "control.duckdb" in str(e.value)


def test_not_found_names_every_id(reader):
    with pytest.raises(timef.NotFoundError) as e:
        reader.get_many(timef.Signal, [1, 500, 501])
    assert "500" in str(e.value) and "501" in str(e.value)
    with pytest.raises(LookupError):
        reader.get(timef.Record, 77)


@pytest.mark.parametrize("bad", ["1", b"1", 1.0, True, -3, 0, 1 << 63, None, object()])
def test_ids_are_positive_int64(reader, bad):
    with pytest.raises(timef.ValidationError):
        reader.get(timef.Record, bad)


def test_a_string_is_not_an_id_collection(reader):
    with pytest.raises(timef.ValidationError):
        reader.get_many(timef.Record, "12")
    with pytest.raises(timef.ValidationError):
        list(reader.iter_records(record_ids="1"))
    with pytest.raises(timef.ValidationError):
        reader.read_tasks(inputs="1")


def test_numpy_integers_are_ids(reader):
    import numpy as np
    assert [r.id for r in reader.get_many(timef.Record, np.array([1, 2]))] == [1, 2]
    assert reader.get(timef.Signal, np.uint8(3)).id == 3


def test_validation_error_on_bad_arguments(reader):
    with pytest.raises(timef.ValidationError):
        reader.read_tasks(split="holdout")
    with pytest.raises(timef.ValidationError):
        reader.read(load="eager")
    with pytest.raises(timef.ValidationError):
        reader.get(timef.Record, 1, parent="ptbxl")  # a plain str is neither alias nor ref
    with pytest.raises(timef.NotFoundError):
        reader.get(timef.Record, 1, parent=timef.ParentAlias("ptbxl"))  # hello-world has none


def test_messages_match_cxx(reader):
    with pytest.raises(timef.NotFoundError) as e:
        reader.get(timef.Record, 999)
    assert str(e.value) == "records: record_id: no record with ID 999"
    assert e.value.where == "record_id" and e.value.problem == "no record with ID 999"


def test_reader_error_when_close_cuts_a_read_short(hello):
    import threading
    import time
    reader = timef.TimeFReader.open(hello)
    outcomes = []

    def work():
        for _ in range(300):
            try:
                reader.read_tasks()
                list(reader.iter_records())
                outcomes.append("ok")
            except timef.ReaderError as e:
                outcomes.append(e)
                if sum(isinstance(o, timef.ReaderError) for o in outcomes) >= 3:
                    return
    thread = threading.Thread(target=work)
    thread.start()
    while thread.is_alive():
        reader.close()  # from another thread, while the read runs with the GIL released
        time.sleep(0.0005)
    errors = [o for o in outcomes if isinstance(o, timef.ReaderError)]
    assert errors, "no read was cut short"
    assert all(o == "ok" or isinstance(o, timef.ReaderError) for o in outcomes)
    assert "closed during the read" in str(errors[0]) and "control.duckdb" in str(errors[0])
    assert len(reader.record_ids()) == 4  # the reader reopens afterwards


@pytest.mark.parametrize("below, kind, listed, first", [
    ("timef/hello-world", "a dataset directory; its versions: ", "1.0.0, 1.1.0", "hello-world"),
    ("timef", "an organization directory; its datasets: ",
     "hello-child (1.0.0), hello-world (1.0.0, 1.1.0), hello-zarr (1.0.0)", "hello-child"),
    ("", "a registry root; its datasets: ",
     "timef/hello-child (1.0.0), timef/hello-world (1.0.0, 1.1.0), timef/hello-zarr (1.0.0)",
     "hello-child"),
])
def test_open_on_a_directory_above_releases_names_them(registry, below, kind, listed, first):
    # As the CLI does (one implementation, in the library): say what to pass instead. The demo
    # registry holds timef/hello-world@1.0.0 and @1.1.0, timef/hello-child and timef/hello-zarr.
    path = registry / below if below else registry
    example = registry / "timef" / first / "1.0.0"
    for opener in (timef.open, timef.TimeFReader.open):
        with pytest.raises(FileNotFoundError) as e:
            opener(path)
        assert isinstance(e.value, timef.MissingFileError)
        assert str(e.value) == (f"{path}: not a release directory (no manifest.json) but {kind}"
                                f"{listed} (pass a version directory, e.g. {example})")


@pytest.mark.parametrize("argument", ["some/release", pathlib.Path("some/release"), 3])
def test_the_reader_constructor_takes_no_path(argument):
    with pytest.raises(timef.ValidationError) as e:
        timef.TimeFReader(argument)
    assert "use TimeFReader.open(path)" in str(e.value)


@pytest.mark.parametrize("make, where, expected", [
    (lambda: timef.TimePoint(358333.33), "TimePoint: offset_us", "an int (µs"),
    (lambda: timef.TimePoint("400000"), "TimePoint: offset_us", "an int (µs"),
    (lambda: timef.TimePoint(True), "TimePoint: offset_us", "an int (µs"),
    (lambda: timef.TimePoint(1 << 70), "TimePoint: offset_us", "within int64"),
    (lambda: timef.TimeInterval(0, 2.5e6), "TimeInterval: end_us", "an int (µs"),
    (lambda: timef.StepPoint(1.0), "StepPoint: step", "an int (a step index)"),
    (lambda: timef.StepInterval(None, 3), "StepInterval: start", "an int (a step index)"),
    (lambda: timef.Record(start_time_us=1.7e15), "Record: start_time_us", "an int (Unix µs)"),
    (lambda: timef.Record(time_span=(0, 10)), "Record: time_span", "a timef.TimeInterval"),
    (lambda: timef.TimeAxis.from_rate(250.5), "TimeAxis.from_rate: rate_hz", "rate_denominator"),
    (lambda: timef.TimeAxis.regular(4000.0), "TimeAxis.regular: period_us", "an int (µs"),
    (lambda: timef.TimeAxis.irregular([0.0, 1.5]), "TimeAxis.irregular: offsets_us", "ints"),
    (lambda: timef.Signal("s", timef.Spec("x"), timef.TimeAxis.ordinal(), None, n_values=2.0),
     "signal 's': n_values", "an int"),
])
def test_wrong_argument_types_name_the_expected_type(make, where, expected):
    # Not pybind's "incompatible constructor arguments": the message says what to pass.
    with pytest.raises(timef.ValidationError) as e:
        make()
    message = str(e.value)
    assert message.startswith(where + ": expected ") and expected in message, message
    assert "incompatible" not in message


def test_float_offsets_are_refused_not_truncated():
    assert timef.TimeAxis.irregular([0, 1, 5]).last_us == 5
    assert timef.TimeAxis.irregular(np.array([0, 7], dtype=np.uint64)).last_us == 7
    with pytest.raises(timef.ValidationError):
        timef.TimeAxis.irregular(np.array([0.0, 1.5]))  # today: silently offsets [0, 1]


def test_numpy_integers_are_accepted_as_times():
    assert timef.TimePoint(np.int64(5)).offset_us == 5
    assert timef.TimeInterval(np.int32(1), 9) == timef.TimeInterval(1, 9)
    assert timef.Record(start_time_us=np.int64(7)).start_time_us == 7
    assert timef.TimeAxis.from_rate(np.int16(250)).period_numerator_us == 4000


SPLITS = "train, validation, test"
LICENSES_START = "MIT, Apache-2.0, BSD-2-Clause"


@pytest.mark.parametrize("make, allowed", [
    (lambda r: r.read_tasks(split="holdout"), SPLITS),
    (lambda r: timef.ClassificationTask(inputs=[], targets=[], split="holdout"), SPLITS),
    (lambda r: r.read_tasks(task_type="regression"), "classification, answer, scalar_prediction"),
    (lambda r: timef.Spec("x", modality="video"), "text, time_series, image, audio"),
    (lambda r: timef.Spec("x", dtype="float16"), "bool, int8, int16"),
])
def test_unknown_enum_values_list_the_allowed_ones(reader, make, allowed):
    with pytest.raises(timef.ValidationError) as e:
        make(reader)
    assert "unknown value" in str(e.value) and f"(expected one of {allowed}" in str(e.value)


@pytest.mark.parametrize("card, allowed", [
    ({"license": "GPL"}, LICENSES_START),
    ({"domains": ["astrology"]}, "cardiology"),
])
def test_unknown_card_values_list_the_allowed_ones(tmp_path, card, allowed):
    ds = timef.Dataset("tests/enums", "1.0.0")
    full = {"name": "n", "description": "d", "license": "CC0-1.0", **card}
    with pytest.raises(timef.ValidationError) as e:
        timef.write(ds, tmp_path, card=full)
    assert "(expected one of " in str(e.value) and allowed in str(e.value), str(e.value)
