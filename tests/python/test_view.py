"""timef.view(): the `timef view` server started from Python (docs/view.md)."""

import json
import urllib.error
import urllib.request

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


def test_view_checks_its_arguments(hello, tmp_path):
    import timef
    with pytest.raises(timef.ValidationError):
        timef.view(hello, port=-1)
    with pytest.raises(timef.ValidationError):
        timef.view(hello, port="80")
    with pytest.raises(timef.FileError):
        timef.view(str(tmp_path / "missing"))
