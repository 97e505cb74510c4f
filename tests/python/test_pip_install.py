"""The package as pip installs it: `python3 -m build --no-isolation --wheel` on the source tree
(pyproject.toml + setup.py), the wheel installed into a fresh venv with --system-site-packages
(numpy and torch from Debian), then a write and a read there, run from a directory outside the
source tree with no PYTHONPATH, so only the installed package can answer.

CTest runs it with the label `pip` and TIMEF_CMAKE_BUILD_DIR set to its own build directory, so
setup.py builds the `timef_python` target there (nothing when it is up to date) instead of
configuring and compiling the project again; without that variable it builds from scratch."""

import json
import os
import subprocess
import sys
import zipfile

from conftest import SOURCE_DIR

CHECK = r"""
import json, os, sys
import numpy as np
import timef, timef.torch

release, scratch = sys.argv[1], sys.argv[2]
with timef.TimeFReader.open(release) as r:
    r.verify()
    records = list(r.iter_records())
    first = records[0].signals[0].to_numpy()
    n_signals = len(timef.torch.SignalDataset(release))

values = np.arange(100, dtype=np.float32) / 8
dataset = timef.Dataset("pip/check", "1.0.0")
record = dataset.add_record(timef.Record(start_time_us=0))
record.add_source("dev").add_signal(timef.Signal(
    "x", timef.Spec("x", dtype="float32", unit="mV"), timef.TimeAxis.from_rate(100), values))
written = timef.write(dataset, scratch, card={"name": "pip check", "description": "d",
                                              "license": "CC0-1.0"})
with timef.TimeFReader.open(written) as r:
    back = next(iter(r.iter_records())).signals[0].to_numpy()

maps = [line.split()[-1] for line in open("/proc/self/maps")
        if "libtimef" in line or "libduckdb" in line]
print(json.dumps({"module": timef.__file__, "version": timef.__version__,
                  "records": len(records), "first_len": len(first), "signals": n_signals,
                  "round_trip": back.tobytes() == values.tobytes(),
                  "libraries": sorted(set(maps))}))
"""


def run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{command}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def test_wheel_installs_into_a_fresh_venv_and_reads(hello, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["TIMEF_PY_BUILD_DIR"] = str(tmp_path / "setuptools")  # nothing written into the source
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(dist),
         SOURCE_DIR], env=env, cwd=tmp_path)
    wheels = list(dist.glob("timef-*.whl"))
    assert len(wheels) == 1, wheels
    names = zipfile.ZipFile(wheels[0]).namelist()
    ext = [n for n in names if n.startswith("timef/_timef.") and n.endswith(".so")]
    assert len(ext) == 1, names
    for needed in ("timef/__init__.py", "timef/torch.py", "timef/libtimef.so.0",
                   "timef/libduckdb.so"):
        assert needed in names, names

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], env=env)
    python = str(venv / "bin" / "python")
    run([python, "-m", "pip", "install", "--no-index", str(wheels[0])], env=env, cwd=tmp_path)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = json.loads(run([python, "-c", CHECK, hello, str(tmp_path / "written")], env=env,
                         cwd=elsewhere))
    site = os.path.realpath(os.path.dirname(out["module"]))
    assert site.startswith(os.path.realpath(venv)), out
    assert out["version"] == run([sys.executable, "-c", "import timef; print(timef.__version__)"]
                                 ).strip()
    assert out["records"] > 0 and out["first_len"] > 0 and out["signals"] > 0, out
    assert out["round_trip"], out
    # The extension's libraries are the wheel's, found through $ORIGIN, not the build tree's.
    assert len(out["libraries"]) == 2, out
    for path in out["libraries"]:
        assert os.path.dirname(os.path.realpath(path)) == site, out
