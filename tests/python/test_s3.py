"""Releases on S3 (docs/remote.md "S3", "Push"): s3rver (npm, pinned in tests/remote/s3rver)
started here on 127.0.0.1 and a port it picks; timef.push, timef.ls_remote, timef.open of an s3://
URL and of a ref with an s3:// root, timef.pull, the CLI's push, ls and read commands, and the
example examples/python/s3_roundtrip.py."""

import filecmp
import json
import os
import re
import subprocess
import sys
import time

import pydump
import pytest
import timef
from conftest import SOURCE_DIR

CLI = os.environ.get("TIMEF_CLI", "timef")
S3RVER = os.path.join(SOURCE_DIR, "tests", "remote", "s3rver", "node_modules", "s3rver", "bin",
                      "s3rver.js")


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    """The s3://timef-test bucket of an s3rver started for this module, with the AWS_* variables
    set (and restored afterwards)."""
    work = tmp_path_factory.mktemp("s3rver")
    log = open(work / "s3rver.log", "w+")
    proc = subprocess.Popen(["node", S3RVER, "-d", str(work / "data"), "-a", "127.0.0.1", "-p",
                             "0", "--silent", "--configure-bucket", "timef-test"],
                            stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    port = None
    while time.monotonic() < deadline and proc.poll() is None and port is None:
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", (work / "s3rver.log").read_text())
        port = found and int(found.group(1))
        time.sleep(0.02)
    if port is None:
        proc.kill()
        pytest.fail("s3rver did not start: " + (work / "s3rver.log").read_text())
    env = {"AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}", "AWS_ACCESS_KEY_ID": "S3RVER",
           "AWS_SECRET_ACCESS_KEY": "S3RVER", "AWS_REGION": "us-east-1",
           "TIMEF_CACHE_DIR": str(work / "cache")}
    saved = {k: os.environ.get(k) for k in list(env) + ["AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL_S3"]}
    os.environ.update(env)
    os.environ.pop("AWS_SESSION_TOKEN", None)
    os.environ.pop("AWS_ENDPOINT_URL_S3", None)
    try:
        yield "s3://timef-test"
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        proc.terminate()
        proc.wait()
        log.close()


def test_push_ls_open_pull(s3, hello, tmp_path):
    root = f"{s3}/py"
    url = f"{root}/timef/hello-world/1.0.0"
    pushed = timef.push(hello, url, threads=2)
    assert pushed["url"] == url and pushed["temporary_objects_left"] == []
    assert timef.ls_remote(root) == [
        {"dataset_id": "timef/hello-world", "version": "1.0.0", "url": url}]
    assert timef.resolve_remote_ref(root, "timef/hello-world") == url
    with timef.open(url) as remote, timef.open(hello) as local:
        ours = pydump.normalized(pydump.dump(remote.read(), values=True))
        theirs = pydump.normalized(pydump.dump(local.read(), values=True))
        assert ours == theirs
        remote.verify()
    with timef.open("timef/hello-world", root=root) as by_ref:
        assert by_ref.manifest["dataset_id"] == "timef/hello-world"
    timef.pull(url, tmp_path / "copy")
    for name in os.listdir(hello):
        if os.path.isfile(os.path.join(hello, name)):
            assert filecmp.cmp(os.path.join(hello, name), tmp_path / "copy" / name, shallow=False)
    with pytest.raises(timef.ValidationError):
        timef.push(hello, url)  # a version is pushed once


def test_cli_push_ls_and_reads(s3, hello):
    root = f"{s3}/cli"
    url = f"{root}/timef/hello-world/1.0.0"
    out = subprocess.run([CLI, "push", hello, url], check=True, capture_output=True, text=True)
    assert f"pushed {url}" in out.stderr
    listed = [json.loads(line) for line in subprocess.run(
        [CLI, "ls", root, "--format", "json"], check=True, capture_output=True,
        text=True).stdout.splitlines()]
    assert [(r["dataset"], r["version"], r["latest"]) for r in listed] == [
        ("timef/hello-world", "1.0.0", True)]
    local = subprocess.run([CLI, "info", hello], check=True, capture_output=True, text=True)
    remote = subprocess.run([CLI, "info", "timef/hello-world", "--root", root], check=True,
                            capture_output=True, text=True)
    assert remote.stdout.replace(url, hello) == local.stdout
    subprocess.run([CLI, "verify", url], check=True, capture_output=True)
    again = subprocess.run([CLI, "push", hello, url], capture_output=True, text=True)
    assert again.returncode == 1 and "immutable" in again.stderr


def test_bad_credentials_name_the_url_without_them(s3, hello, monkeypatch):
    url = f"{s3}/creds/timef/hello-world/1.0.0"
    timef.push(hello, url)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "NOSUCHKEY")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "sekrit")
    with pytest.raises(timef.FileError) as error:
        timef.open(url)
    message = str(error.value)
    assert url in message and "InvalidAccessKeyId" in message
    assert "NOSUCHKEY" not in message and "sekrit" not in message


def test_example(s3, hello, tmp_path):
    out = subprocess.run([sys.executable, os.path.join(SOURCE_DIR, "examples", "python",
                                                       "s3_roundtrip.py"),
                          hello, f"{s3}/example", tmp_path / "copy"],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    assert out[0].startswith(f"pushed {s3}/example/timef/hello-world/1.0.0: ")
    assert out[1] == "listed timef/hello-world@1.0.0"
    assert out[2].startswith("record ")
    assert out[3].startswith("pulled ") and out[3].endswith(str(tmp_path / "copy"))
