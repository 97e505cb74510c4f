"""timef.importers.read_csv and timef.import_files("csv") (docs/importing.md "CSV and TSV",
docs/python.md) on files written by pandas, with pandas' own reading of the same file as the
oracle of every value, null and time; bad input raises FormatError naming the file, line and
column."""

import numpy as np
import pandas as pd
import pytest

import timef

CARD = {"name": "CSV import", "description": "pandas files", "license": "CC0-1.0"}


def frame(seed, n, regular=True):
    rng = np.random.default_rng(seed)
    if regular:
        time = np.arange(n) / 250.0
    else:
        time = np.cumsum(rng.integers(1, 5000, n)) / 1e4
    df = pd.DataFrame({
        "time": time,
        "ECG II (mV)": rng.normal(0, 1, n),
        "Resp (mV)": rng.normal(0, 100, n) * 1e-7,
        "SpO2 (%)": rng.uniform(90, 100, n).round(1),
    })
    df.loc[rng.choice(n, n // 10, replace=False), "Resp (mV)"] = np.nan  # empty cells
    return df


def assert_matches_pandas(record, path, sep=","):
    # round_trip: the correctly rounded parse (pandas' default C parser can be 1 ulp off).
    want = pd.read_csv(path, sep=sep, float_precision="round_trip")
    signals = record.signals
    assert [s.name for s in signals] == [c.split(" (")[0] for c in want.columns[1:]]
    for signal, column in zip(signals, want.columns[1:]):
        got = signal.to_numpy()
        assert got.dtype == np.float64
        expected = want[column].to_numpy()
        mask = np.ma.getmaskarray(got)
        assert np.array_equal(mask, np.isnan(expected)), column
        assert np.array_equal(np.ma.getdata(got)[~mask], expected[~mask]), column
    times = np.round(want["time"].to_numpy() * 1e6).astype(np.int64)
    for signal in signals:
        assert np.array_equal(signal.time_offsets_us(), times)


def test_regular_file_matches_pandas(tmp_path):
    path = tmp_path / "regular.csv"
    frame(1, 5000).to_csv(path, index=False)
    record = timef.importers.read_csv(path)
    assert_matches_pandas(record, path)
    ecg, resp, spo2 = record.signals
    assert ecg.axis.type == "regular" and ecg.axis.period_numerator_us == 4000
    assert (ecg.spec.spec_type, ecg.spec.unit, ecg.spec.nullable) == ("ecg", "millivolt", True)
    assert (spo2.spec.spec_type, spo2.spec.unit) == ("spo2", "percent")
    assert record.metadata["csv"]["axis"] == "regular"
    assert record.metadata["source_sha256"].startswith("sha256:")


def test_irregular_tsv_matches_pandas(tmp_path):
    path = tmp_path / "irregular.tsv"
    frame(2, 3000, regular=False).to_csv(path, index=False, sep="\t")
    record = timef.importers.read_csv(path)
    assert_matches_pandas(record, path, sep="\t")
    assert record.signals[0].axis.type == "irregular"


def test_iso_timestamps_and_options(tmp_path):
    path = tmp_path / "wearable.csv"
    stamps = pd.date_range("2024-03-01 08:00:00", periods=100, freq="40ms", tz="UTC")
    pd.DataFrame({"timestamp": stamps.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                  "hr": np.arange(100, dtype=float)}).to_csv(path, index=False)
    record = timef.importers.read_csv(path, units={"hr": "bpm"}, spec_types={"hr": "pulse"})
    want = pd.read_csv(path, parse_dates=["timestamp"])
    assert record.start_time_us == want["timestamp"].iloc[0].value // 1000
    (hr,) = record.signals
    assert hr.spec.spec_type == "pulse" and hr.axis.period_numerator_us == 40000
    assert np.array_equal(hr.to_numpy(), want["hr"].to_numpy())

    rated = tmp_path / "rated.csv"
    rated.write_text("a;b\n1;2\n0.1;\n")
    record = timef.importers.read_csv(rated, rate=0.5, delimiter=";", dtype="float32")
    a, b = record.signals
    assert a.to_numpy().dtype == np.float32 and a.to_numpy()[1] == np.float32(0.1)
    assert list(np.ma.getmaskarray(b.to_numpy())) == [False, True]
    assert a.time_offsets_us().tolist() == [0, 2_000_000]


def test_unknown_unit_warns(tmp_path):
    path = tmp_path / "u.csv"
    path.write_text("t,x (furlongs)\n0,1\n1,2\n")
    with pytest.warns(timef.importers.ImportedDataWarning, match="furlongs"):
        record = timef.importers.read_csv(path)
    assert record.signals[0].spec.unit is None


@pytest.mark.parametrize("text,where", [
    ("t,v\n0,1\n1,2,3\n", "line 3"),
    ("t,v\n0,1\nlater,2\n", "line 3, column 't'"),
    ("t,v\n0,1\n2,2\n1,3\n", "line 4, column 't'"),
    ("", "line 1"),
    ("t,v\n0,1\n1,abc\n", "line 3, column 'v'"),
])
def test_bad_input_names_file_line_and_column(tmp_path, text, where):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(timef.FormatError) as err:
        timef.importers.read_csv(path)
    assert f"{path}: {where}: " in str(err.value)
    with pytest.raises(timef.FormatError):
        timef.import_files("csv", [path], root=tmp_path / "root", dataset="tests/bad",
                           version="1.0.0", card=CARD)
    assert not (tmp_path / "root" / "tests" / "bad").exists()


def test_import_files_reads_back_like_pandas(tmp_path):
    paths = []
    for i in range(2):
        paths.append(tmp_path / f"in{i}.csv")
        frame(10 + i, 700).to_csv(paths[-1], index=False)
    release = timef.import_files("csv", paths, root=tmp_path / "root", dataset="tests/csv",
                                 version="1.0.0", card=CARD, compression_level=1,
                                 csv={"time_column": "time", "time_unit": "s"})
    with timef.TimeFReader.open(release) as r:
        r.verify()
        records = list(r.iter_records())
        assert [rec.metadata["source_file"] for rec in records] == [str(p) for p in paths]
        for record, path in zip(records, paths):
            assert_matches_pandas(record, path)
