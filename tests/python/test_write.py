"""Writing from Python with the C++ writer, then reading back: every dtype, nulls, the three axis
types, loaders, annotations on every kind of object and all eight task types."""

import pathlib

import numpy as np
import pydump
import pytest
import timef

CARD = {"name": "Python-built", "description": "written by the Python tests", "license": "CC0-1.0",
        "domains": ["cardiology"], "tags": ["test"]}


def build(loader_calls):
    ds = timef.Dataset("tests/py-built", "1.0.0")
    ds.annotate("curation", "built in Python")
    ecg = ds.add_record(timef.Record(start_time_us=1_700_000_000_000_000, metadata={"age": 61}))
    device = ecg.add_source("holter")
    chest = device.add_child(timef.Source("chest", metadata={"site": "V1"}))
    mv = timef.Spec("ecg", dtype="float32", unit="mV")
    axis = timef.TimeAxis.from_rate(250)
    lead = np.sin(np.arange(1000, dtype=np.float32) / 10)
    lead[7] = np.nan
    lead[8] = -0.0
    lead[9] = np.inf
    i = chest.add_signal(timef.Signal("lead_I", mv, axis, lead))

    def late():
        loader_calls.append(1)
        return np.cos(np.arange(1000, dtype=np.float32) / 10)
    ii = chest.add_signal(timef.Signal("lead_II", mv, axis, late, n_values=1000))
    i.annotate("quality", "good")
    ii.annotate("beat", 1, span=timef.TimePoint(400_000))
    chest.annotate("placement", "left")
    ecg.annotate("episode", "af", span=timef.TimeInterval(1_000_000, 2_000_000), confidence=0.5,
                 provenance={"by": "model"}, metadata={"note": "x"})
    ecg.annotate("tags", ["a", "b"])
    ecg.annotate("reviewed")

    vitals = ds.add_record()
    src = vitals.add_source("vitals")
    offsets = np.array([0, 10, 25, 30, 47], dtype=np.int64)
    irregular = timef.TimeAxis.irregular(offsets)
    hr = np.ma.masked_array([60.5, 61.0, np.nan, 62.0, 63.0], mask=[0, 0, 0, 1, 0])
    src.add_signal(timef.Signal("hr", timef.Spec("heart_rate", dtype="float64", unit="bpm",
                                                 nullable=True), irregular, hr))
    regular = timef.TimeAxis.regular(1_000_000)
    for dtype, values in [("bool", [True, False, True]), ("int8", [-128, 0, 127]),
                          ("int16", [-32768, 1, 32767]), ("int32", [-2**31, 2, 2**31 - 1]),
                          ("uint8", [0, 1, 255]), ("uint16", [0, 2, 65535]),
                          ("uint32", [0, 3, 2**32 - 1]), ("float64", [1.5, -0.0, np.inf])]:
        src.add_signal(timef.Signal(f"s_{dtype}", timef.Spec(f"t_{dtype}", dtype=dtype),
                                    regular, np.array(values)))
    diary = ds.add_record()
    notes = diary.add_source("diary")
    ordinal = timef.TimeAxis.ordinal()
    notes.add_signal(timef.Signal("notes", timef.Spec("note", dtype="str", modality="text"),
                                  ordinal, ["calm", "ünïcödé", ""]))
    notes.add_signal(timef.Signal("mood", timef.Spec("mood", dtype="enum",
                                                     categories=["low", "high"], nullable=True),
                                  ordinal, np.ma.masked_array(["low", "high", "low"],
                                                              mask=[0, 0, 1])))

    registered = ds.register_annotation(timef.Annotation("vocabulary", ["low", "high"]))
    c = ds.add_task(timef.ClassificationTask(inputs=[ecg], targets=["af"], split="train",
                                             prompt="Which rhythm? " + "x" * 300,
                                             target_schema="rhythm-v1"))
    ds.add_task(timef.AnswerTask(inputs=[ecg], targets=["An AF episode."], prompt="What?",
                                 rationale="Because.", from_tasks=[c],
                                 input_annotations=[registered]))
    ds.add_task(timef.ScalarPredictionTask(inputs=[vitals], targets=[61.5], unit="bpm",
                                           target_name="mean_hr", split="validation"))
    ds.add_task(timef.TemporalLocalizationTask(
        inputs=[ecg], mode="sparse", split="test",
        targets=[timef.ScopedSpan(timef.TimeInterval(1_000_000, 2_000_000)),
                 timef.ScopedSpan(timef.StepPoint(5), [i])]))
    ds.add_task(timef.ForecastingTask(inputs=[ecg], targets=[vitals],
                                      scope=timef.ScopedSpan(timef.StepInterval(0, 500), [ii])))
    ds.add_task(timef.TsEditingTask(inputs=[ecg], prompt="Clean it.", targets=[vitals]))
    ds.add_task(timef.TsGenerationTask(inputs=[], prompt="Make one.", targets=[diary]))
    ds.add_task(timef.TsCorrespondenceTask(inputs=[ecg], candidate_records=[vitals, diary],
                                           targets=[vitals, i, 2, True]))
    ds.tasks[1].annotate("difficulty", 2)
    return ds


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    calls = []
    ds = build(calls)
    root = tmp_path_factory.mktemp("root")
    release = timef.write(ds, root, card=CARD, chunk_max_bytes=1024, threads=2)
    return ds, release, calls


def test_write_returns_the_release(written):
    ds, release, calls = written
    assert release.endswith("tests/py-built/1.0.0")
    assert calls == [1]  # the loader ran once, when the writer needed the values
    assert [r.id for r in ds.records] == [1, 2, 3] and [t.id for t in ds.tasks] == list(range(1, 9))
    with timef.TimeFReader.open(release) as r:
        r.verify()
        assert r.manifest["metadata"]["name"] == "Python-built"


def test_round_trip_equal_in_every_field(written):
    ds, release, calls = written
    expected = pydump.normalized(pydump.dump(ds, values=True))
    with timef.TimeFReader.open(release) as r:
        back = r.read(load=timef.LoadPlan.ALL_EAGER)
        got = pydump.normalized(pydump.dump(back, values=True))
        cxx = pydump.normalized(__import__("json").loads(r._r._dump(True)))
    for key in expected:
        assert got[key] == expected[key], key
    assert got == cxx


def test_values_bit_exact(written):
    ds, release, _ = written
    with timef.TimeFReader.open(release) as r:
        lead = r.get(timef.Signal, ds.records[0].signals[0].id).to_numpy()
    original = ds.records[0].signals[0].to_numpy()
    assert lead.tobytes() == original.tobytes()


def test_bad_input_is_refused_before_anything_is_written(tmp_path):
    ds = timef.Dataset("tests/bad", "1.0.0")
    rec = ds.add_record()
    spec = timef.Spec("img", dtype="float32", value_shape=[2, 8])
    rec.add_source("s").add_signal(timef.Signal("spectrogram", spec, timef.TimeAxis.ordinal(),
                                                np.zeros((3, 2, 8), dtype=np.float32)))
    with pytest.raises(timef.ValidationError):
        timef.write(ds, tmp_path, card=CARD)  # N-D values need the Zarr backend
    assert not any(tmp_path.iterdir())
    with pytest.raises(timef.ValidationError):
        timef.Spec("x", dtype="float128")
    with pytest.raises(timef.ValidationError):
        timef.write(timef.Dataset("tests/bad", "1.0.0"), tmp_path, card={"nme": "typo"})
    with pytest.raises(timef.ValidationError):
        timef.write(timef.Dataset("tests/bad", "1.0.0"), tmp_path, card=CARD, chunk_size=3)


def test_loader_errors_propagate_and_publish_nothing(tmp_path):
    ds = timef.Dataset("tests/loader", "1.0.0")
    src = ds.add_record().add_source("s")

    def broken():
        raise RuntimeError("sensor offline")
    src.add_signal(timef.Signal("x", timef.Spec("x"), timef.TimeAxis.ordinal(), broken,
                                n_values=4))
    with pytest.raises(RuntimeError, match="sensor offline"):
        timef.write(ds, tmp_path, card=CARD)
    assert not (tmp_path / "tests" / "loader" / "1.0.0").exists()


def test_progress_is_reported(tmp_path):
    stages = []
    ds = build([])
    timef.write(ds, release_dir=tmp_path / "r", card=CARD,
                progress=lambda stage, done, total, shard: stages.append(stage))
    assert stages[-1] == "done" and "values" in stages


def test_zarr_backend_stores_nd_values_and_nulls(tmp_path):
    ds = timef.Dataset("tests/py-zarr", "1.0.0")
    src = ds.add_record().add_source("s")
    spec = timef.Spec("img", dtype="float32", value_shape=[2, 8],
                      dimension_names=["channel", "freq"])
    frames = np.arange(3 * 16, dtype=np.float32).reshape(3, 2, 8)
    frames[1, 0, 3] = np.nan
    frames[2, 1, 7] = -0.0
    src.add_signal(timef.Signal("spectrogram", spec, timef.TimeAxis.ordinal(), frames))
    release = timef.write(ds, tmp_path, card=CARD, values_backend="zarr",
                          zarr_compression_level=5)
    assert (tmp_path / "tests/py-zarr/1.0.0/time_series.zarr/img/zarr.json").exists()
    with timef.TimeFReader.open(release) as r:
        assert r.manifest["values_backend"] == "zarr"
        signal = r.get(timef.Signal, ds.records[0].signals[0].id)
        back = signal.to_numpy()
        assert back.shape == (3, 2, 8)
        assert back.tobytes() == frames.tobytes()
        assert list(signal.spec.dimension_names) == ["channel", "freq"]
    with pytest.raises(timef.ValidationError):
        timef.write(ds, tmp_path, card=CARD, values_backend="hdf5")


def _pieces_dataset(values, version):
    ds = timef.Dataset("tests/py-pieces", version)
    src = ds.add_record(timef.Record(start_time_us=1_700_000_000_000_000)).add_source("s")
    src.add_signal(timef.Signal("x", timef.Spec("x", dtype="int16", nullable=True),
                                timef.TimeAxis.from_rate(100), values, n_values=10_000))
    return ds


def test_a_generator_function_writes_values_in_pieces(tmp_path):
    whole = np.ma.masked_array(np.arange(10_000, dtype=np.int16) % 300,
                               mask=np.arange(10_000) % 11 == 0)
    passes = []

    def pieces():
        passes.append(1)
        for at in range(0, 10_000, 777):
            yield whole[at:at + 777]
    ds = _pieces_dataset(pieces, "1.0.0")
    a = timef.write(ds, tmp_path / "a", card=CARD, chunk_max_bytes=1024, compression_level=3)
    b = timef.write(_pieces_dataset(whole, "1.0.0"), tmp_path / "b", card=CARD,
                    chunk_max_bytes=1024, compression_level=3)
    assert passes == [1]  # one pass, by the writer
    # The shards are the same bytes whether the values came whole or in pieces.
    shards_a = sorted(pathlib.Path(a).glob("time_series/*.parquet"))
    shards_b = sorted(pathlib.Path(b).glob("time_series/*.parquet"))
    assert [p.name for p in shards_a] == [p.name for p in shards_b] and shards_a
    for pa, pb in zip(shards_a, shards_b):
        assert pa.read_bytes() == pb.read_bytes()
    with timef.TimeFReader.open(a) as r:
        back = r.get(timef.Signal, ds.records[0].signals[0].id).to_numpy()
        assert np.array_equal(np.ma.getmaskarray(back), np.ma.getmaskarray(whole))
        assert np.array_equal(back.filled(0), whole.filled(0))

    def short():
        yield whole[:9_999]
    with pytest.raises(timef.ValidationError, match="pieces hold 9999"):
        timef.write(_pieces_dataset(short, "1.0.0"), tmp_path / "c", card=CARD)


def test_write_keywords_are_the_declared_write_options(tmp_path):
    # The keywords come from the C++ list of write options (include/timef/write_options.h).
    names = set(timef._OPTION_NAMES)
    assert {"chunk_max_bytes", "row_group_target_bytes", "shard_target_bytes",
            "data_page_target_bytes", "compression", "compression_level", "threads",
            "text_pack_threshold_bytes", "audit", "values_backend",
            "zarr_compression_level"} == names
    ds = timef.Dataset("tests/py-options", "1.0.0")
    src = ds.add_record(timef.Record(start_time_us=0)).add_source("s")
    src.add_signal(timef.Signal("x", timef.Spec("x", dtype="int16"), timef.TimeAxis.from_rate(10),
                                np.arange(10, dtype=np.int16)))
    with pytest.raises(timef.ValidationError, match="unknown option 'jobs'"):
        timef.write(ds, tmp_path, card=CARD, jobs=2)
    with pytest.raises(timef.ValidationError, match="threads"):
        timef.write(ds, tmp_path, card=CARD, threads=257)
    with pytest.raises(timef.ValidationError, match="text_pack_threshold_bytes"):
        timef.write(ds, tmp_path, card=CARD, text_pack_threshold_bytes=-1)
    release = timef.write(ds, tmp_path, card=CARD, threads=2, compression="uncompressed",
                          audit=False)
    assert pathlib.Path(release, "manifest.json").exists()
