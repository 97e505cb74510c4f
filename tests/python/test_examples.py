"""The Python examples run as a user runs them, and print what they should."""

import os
import subprocess
import sys

import timef
from conftest import SOURCE_DIR

EXAMPLES = os.path.join(SOURCE_DIR, "examples", "python")


def run(script, *args):
    # A hang fails here (subprocess.TimeoutExpired) instead of at CTest's 1,500 s.
    out = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *map(str, args)],
                         check=True, capture_output=True, text=True, timeout=600)
    return out.stdout


def test_write_then_read(tmp_path):
    release = run("write_ecg.py", tmp_path).strip()
    assert release == str(tmp_path / "examples" / "ecg-python" / "1.0.0")
    with timef.TimeFReader.open(release) as r:
        r.verify()
        records = list(r.iter_records())
        assert len(records) == 4 and all(len(rec.signals) == 12 for rec in records)
        assert {t.task_type for t in r.read_tasks()} == {"classification", "answer"}
    printed = run("read_ecg.py", release)
    assert "record 1: 12 leads, 5000 samples, millivolt" in printed
    assert "48 series loaded together: 240000 values" in printed
    assert "48 series into one (48, 5000) array: 240000 values, equal: True" in printed
    assert "values-only epoch: 48 series in 3 batches, 240000 values" in printed
    assert "signal 1, steps 0-500: 500 values" in printed
    assert "8 tasks: ['answer', 'classification']" in printed


def test_spectrogram_on_zarr(tmp_path):
    printed = run("write_spectrogram_zarr.py", tmp_path).splitlines()
    release = printed[0]
    assert release == str(tmp_path / "examples" / "spectrogram-zarr" / "1.0.0")
    assert printed[1] == "backend zarr, window shape (4, 2, 8)"
    with timef.TimeFReader.open(release) as r:
        hr = r.get(timef.Signal, 2).to_numpy()
        assert list(hr.mask.nonzero()[0]) == [5, 6, 40]


def test_train_ecg(tmp_path):
    release = run("write_ecg.py", tmp_path).strip()
    printed = run("train_ecg.py", release, "--epochs", 2).splitlines()
    assert printed[0] == "3 training tasks, classes ['af', 'normal'], 12 leads"
    losses = []
    for epoch, line in zip((1, 2), printed[1:3]):
        head, loss = line.rsplit(" ", 1)
        assert head == f"epoch {epoch}: 3 samples, mean loss"
        losses.append(float(loss))
    assert all(0 < loss < 10 for loss in losses)
    assert printed[3] == "checkpoint: epoch 1, global position 3"
    right, total = printed[4].removeprefix("test: ").removesuffix(" correct").split("/")
    assert total == "1" and right in ("0", "1")
    assert len(printed) == 5


def test_train_ddp(tmp_path):
    release = run("write_ecg.py", tmp_path).strip()
    printed = run("train_ddp.py", release, "--epochs", 1).splitlines()
    assert printed[0] == "2 processes (gloo), 3 training tasks, 2 per process per epoch"
    head, loss = printed[1].rsplit(" ", 1)
    assert head == "epoch 1: 4 samples (every task, 1 repeated), mean loss"
    assert 0 < float(loss) < 10
    assert printed[2] == "parameters equal on every process"
    assert printed[3] == "checkpoint: epoch 0, global position 4"
    assert len(printed) == 4


def test_import_on_dask(tmp_path):
    printed = run("import_dask.py", tmp_path).splitlines()
    assert printed[0] == str(tmp_path / "examples" / "wearable" / "1.0.0")
    assert len(printed) == 4
    for k, line in enumerate(printed[1:3]):
        assert line.startswith("part examples/wearable.import-1.0.0-") and line.endswith(f"@0.0.{k}")
    assert printed[3] == "record 1 from subject1.csv: Pulse bpm, 250 values, 5 null"
    with timef.TimeFReader.open(printed[0]) as r:
        r.verify()


def test_view_release(hello):
    printed = run("view_release.py", hello).splitlines()
    assert printed[0].startswith("http://127.0.0.1:") and printed[0].endswith("/")
    assert printed[1] == "timef/hello-world@1.0.0: TimeF hello world"
    assert printed[2].startswith("signal ") and " buckets of " in printed[2]


def test_open_version(registry):
    # The demo child by ref: its payload source found in the registry, then loaded whole.
    printed = run("open_version.py", registry, "timef/hello-child").splitlines()
    assert printed[0] == "version timef/hello-child@1.0.0"
    assert "payload source timef/hello-world@1.0.0" in printed
    assert "local version timef/hello-child@1.0.0" in printed
    with timef.open(os.path.join(str(registry), "timef", "hello-child", "1.0.0")) as reader:
        records, signals = len(reader.record_ids()), len(reader.signal_ids())
        dataset = reader.read(load=timef.LoadPlan.ALL_EAGER)
    values = sum(s.to_numpy().size for r in dataset.records for s in r.signals if s.has_values)
    assert f"{records} records, {signals} signals" in printed
    assert printed[-1] == f"loaded {records} records, {values} values"
