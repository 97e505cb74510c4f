"""timef.view(): the `timef view` server started from Python (docs/view.md)."""

import json
import urllib.error
import urllib.request

import numpy as np
import pytest


def get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, json.loads(response.read())


def test_view_serves_the_api_on_a_free_loopback_port_and_stops(hello):
    import timef
    with timef.view(hello, port=0) as server:
        assert server.running
        assert server.url.startswith("http://127.0.0.1:") and server.url.endswith("/")
        assert server.url == f"http://127.0.0.1:{server.port}/"
        status, card = get(server.url + "api/card")
        assert status == 200 and card["dataset_id"] == "timef/hello-world"
        status, rng = get(server.url + "api/signals/2/range?start_step=0&end_step=10&buckets=10")
        assert rng["step"] == 1 and len(rng["min"]) == 10
        with timef.TimeFReader.open(hello) as reader:
            values = reader.load_values([2])[0]
        assert rng["min"] == [float(v) for v in values[:10]]
        assert rng["max"] == rng["min"]
        with pytest.raises(urllib.error.HTTPError) as bad:
            urllib.request.urlopen(server.url + "api/records/..%2f", timeout=30)
        assert bad.value.code == 400
        url = server.url
    assert not server.running
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "api/card", timeout=5)
    with pytest.raises(timef.Error):
        server.url
    server.stop()  # idempotent


NUMERIC_DTYPES = ["bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float32",
                  "float64"]


def _random_values(rng, dtype, n):
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    if dtype.startswith("float"):
        values = rng.normal(0, 1000, n).astype(dtype)
        values[rng.integers(0, n, 40)] = np.nan
        values[rng.integers(0, n, 3)] = np.inf
        values[rng.integers(0, n, 3)] = -np.inf
        values[rng.integers(0, n, 5)] = -0.0
        return values
    info = np.iinfo(dtype)
    return rng.integers(info.min, int(info.max) + 1, n, dtype=dtype)


def _json_bound(value):
    """numpy's min/max of a bucket as the range API spells it."""
    if isinstance(value, (bool, np.bool_)):
        return 1 if value else 0
    value = float(value)
    if np.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def test_range_min_max_equal_numpy_for_random_windows_of_every_numeric_dtype(tmp_path):
    # The oracle is numpy over the values the test wrote (not the reader): every bucket of random
    # windows, zoomed in (steps), zoomed out (page statistics) and in between, for every numeric
    # dtype, written in small chunks so that windows cross many pages.
    import timef
    rng = np.random.default_rng(20261206)
    n = 30_000
    ds = timef.Dataset("tests/view-oracle", "1.0.0")
    record = ds.add_record()
    source = record.add_source("device")
    written = {}
    for dtype in NUMERIC_DTYPES:
        values = _random_values(rng, dtype, n)
        signal = source.add_signal(timef.Signal(f"s_{dtype}", timef.Spec(f"t_{dtype}", dtype=dtype),
                                                timef.TimeAxis.from_rate(100), values))
        written[f"s_{dtype}"] = (signal, values)
    release = timef.write(ds, tmp_path, card={"name": "oracle", "description": "view oracle",
                                             "license": "CC0-1.0"}, chunk_max_bytes=4096)
    checked = from_statistics = decoded = 0
    with timef.view(release, port=0) as server:
        for name, (signal, values) in written.items():
            windows = [(0, n, 1000), (0, n, 7), (0, n, 2), (1, n - 1, 3), (12_345, 12_400, 1000)]
            for _ in range(12):
                a, b = sorted(int(x) for x in rng.integers(0, n + 1, 2))
                windows.append((a, max(b, a + 1), int(rng.integers(1, 400))))
            for start, end, buckets in windows:
                _, answer = get(f"{server.url}api/signals/{signal.id}/range?start_step={start}"
                                f"&end_step={end}&buckets={buckets}")
                first, step, last = answer["start_step"], answer["step"], answer["end_step"]
                from_statistics += answer["pages_from_statistics"]
                decoded += answer["data_pages_decoded"]
                assert first <= start and last == min(end, n) and step >= 1
                assert len(answer["min"]) == len(answer["max"]) == -(-(last - first) // step)
                for i, (lo, hi) in enumerate(zip(answer["min"], answer["max"])):
                    bucket = values[first + i * step:min(first + (i + 1) * step, last)]
                    if bucket.dtype.kind == "f":
                        bucket = bucket[~np.isnan(bucket)]
                    if bucket.size == 0:
                        assert lo is None and hi is None, (name, start, end, i)
                        continue
                    assert lo == _json_bound(bucket.min()), (name, start, end, buckets, i)
                    assert hi == _json_bound(bucket.max()), (name, start, end, buckets, i)
                    checked += 1
    assert checked > 1000
    assert from_statistics > 0 and decoded > 0  # both ways of answering were checked


def test_view_checks_its_arguments(hello, tmp_path):
    import timef
    with pytest.raises(timef.ValidationError):
        timef.view(hello, port=-1)
    with pytest.raises(timef.ValidationError):
        timef.view(hello, port="80")
    with pytest.raises(timef.FileError):
        timef.view(str(tmp_path / "missing"))
