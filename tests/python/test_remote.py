"""A release served over HTTP (docs/remote.md): nginx (Debian nginx-light) started here on
127.0.0.1 and a free port, serving a registry; timef.open(url) and the CLI's read commands read
it equal to the local release."""

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request

import pydump
import pytest
import timef

CLI = os.environ.get("TIMEF_CLI", "timef")
NGINX = "/usr/sbin/nginx"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def served(registry, tmp_path_factory):
    """(base URL, registry root) with nginx serving the registry; stopped afterwards."""
    work = tmp_path_factory.mktemp("nginx")
    (work / "tmp").mkdir()
    for _ in range(5):
        port = free_port()
        conf = work / "nginx.conf"
        conf.write_text(
            "daemon off;\nmaster_process off;\nworker_processes 1;\n"
            f"pid {work}/nginx.pid;\nerror_log {work}/error.log;\n"
            "events { worker_connections 256; }\n"
            "http {\n  access_log off;\n"
            + "".join(f"  {t}_temp_path {work}/tmp;\n"
                      for t in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
            + f"  server {{\n    listen 127.0.0.1:{port};\n    root {registry};\n  }}\n}}\n")
        proc = subprocess.Popen([NGINX, "-p", f"{work}/", "-e", f"{work}/error.log", "-c",
                                 str(conf)])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.02)
        if proc.poll() is None:
            break
    else:
        pytest.fail("nginx did not start: " + (work / "error.log").read_text())
    try:
        yield f"http://127.0.0.1:{port}", registry
    finally:
        proc.terminate()
        proc.wait()


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TIMEF_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_open_url_reads_equal_to_local(served, hello, cache_dir):
    base, _ = served
    url = f"{base}/timef/hello-world/1.0.0"
    with timef.open(url) as remote, timef.open(hello) as local:
        assert remote.record_ids() == local.record_ids()
        theirs = pydump.normalized(pydump.dump(local.read(), values=True))
        ours = pydump.normalized(pydump.dump(remote.read(), values=True))
        assert ours == theirs
        remote.verify()
    # The catalog was fetched once into the cache, under its checksum.
    cached = [p for p in cache_dir.rglob("control.duckdb")]
    assert len(cached) == 1


def test_missing_release_is_missing_file_error(served, cache_dir):
    base, _ = served
    with pytest.raises(timef.MissingFileError) as e:
        timef.open(f"{base}/timef/nothing/1.0.0")
    assert f"{base}/timef/nothing/1.0.0/manifest.json" in str(e.value)


def cli(*args, env=None):
    return subprocess.run([CLI, *args], check=True, capture_output=True, text=True, env=env).stdout


def test_cli_read_commands_take_urls(served, hello, cache_dir):
    base, _ = served
    url = f"{base}/timef/hello-world/1.0.0"
    env = dict(os.environ, TIMEF_CACHE_DIR=str(cache_dir))
    for command in (["info"], ["records"], ["signals"], ["tasks"], ["cat", "--signal", "2"]):
        remote = cli(*command[:1], url, *command[1:], env=env)
        local = cli(*command[:1], hello, *command[1:], env=env)
        assert remote.replace(url, hello) == local, command
    cli("verify", url, env=env)


def test_view_serves_a_url_equal_to_the_local_release(served, hello, cache_dir):
    # timef view over a remote release: the same answers as over the local copy, page statistics
    # read through the HTTP transport.
    base, _ = served
    url = f"{base}/timef/hello-world/1.0.0"
    paths = ["api/card", "api/records?limit=10", "api/records/1", "api/tasks/1",
             "api/signals/2/range?buckets=5", "api/signals/2/range?start_step=100&end_step=900"]
    answers = []
    for release in (url, hello):
        with timef.view(release, port=0) as server:
            got = []
            for path in paths:
                with urllib.request.urlopen(server.url + path, timeout=30) as response:
                    got.append(json.loads(response.read()))
            answers.append(got)
    assert answers[0] == answers[1]
    assert answers[0][4]["pages_from_statistics"] > 0


def test_pull_downloads_a_verified_copy(served, hello, tmp_path):
    base, _ = served
    url = f"{base}/timef/hello-world/1.0.0"
    result = timef.pull(url, tmp_path / "copy", threads=2)
    assert result["files_downloaded"] > 0 and result["files_kept"] == 0
    with timef.open(tmp_path / "copy") as copy, timef.open(hello) as local:
        copy.verify()
        assert copy.record_ids() == local.record_ids()
    cli("pull", url, str(tmp_path / "cli-copy"))
    cli("verify", str(tmp_path / "cli-copy"))


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_torch_dataset_reads_a_url_in_each_worker(served, hello, cache_dir, context):
    import multiprocessing

    import numpy as np
    from torch.utils.data import DataLoader
    from timef.torch import SignalDataset

    base, _ = served
    url = f"{base}/timef/hello-world/1.0.0"
    local = {item["signal_id"]: item for item in SignalDataset(hello)}
    loader = DataLoader(SignalDataset(url), batch_size=None, num_workers=2,
                        multiprocessing_context=multiprocessing.get_context(context))
    seen = []
    for item in loader:
        want = local[item["signal_id"]]
        np.testing.assert_array_equal(item["values"].numpy(), want["values"].numpy())
        seen.append(item["signal_id"])
    assert sorted(seen) == sorted(local)


def test_version_api_over_http(served, hello, tmp_path):
    # A URL registry: exact refs only (a web server has no listing); its versions, the client's
    # open and load read what the local releases hold, the catalog in the client's cache.
    base, registry = served
    reg = timef.open_registry(base + "/")
    assert reg.remote and reg.root == base
    version = reg.open_version("timef/hello-world@1.0.0")
    assert version.remote and version.location == f"{base}/timef/hello-world/1.0.0"
    with pytest.raises(timef.ValidationError):
        reg.open_version("timef/hello-world")
    with pytest.raises(timef.NotFoundError):
        reg.open_version("timef/hello-world@9.9.9")
    want = pydump.normalized(pydump.dump(timef.open(hello).read(), values=True))
    cache = tmp_path / "client-cache"
    with timef.TimeFReader(version, cache_dir=cache) as reader:
        assert pydump.normalized(pydump.dump(reader.read(), values=True)) == want
    client = timef.Client(cache_dir=cache, registries=[base])
    assert pydump.normalized(pydump.dump(client.load("timef/hello-world@1.0.0"),
                                         values=True)) == want
    assert len(list(cache.rglob("control.duckdb"))) == 1
    # A child whose values live in its parent: the source resolves in the URL registry.
    child = os.path.join(str(registry), "timef", "hello-child", "1.0.0")
    with client.open("timef/hello-child@1.0.0") as reader, timef.open(child) as local:
        assert pydump.normalized(pydump.dump(reader.read(), values=True)) == \
            pydump.normalized(pydump.dump(local.read(), values=True))
    assert client.open_version("timef/hello-child@1.0.0").payload_sources == {
        "timef/hello-world@1.0.0": f"{base}/timef/hello-world/1.0.0"}
