#!/usr/bin/python3
"""Imports wearable CSV exports on a Dask cluster (here a local one of two worker processes) into
one release, and prints the release directory, the part releases it pins and one record.

Each Dask task imports a partition of the files into a part release under the root; a last task
writes the release, which imports every part's records by reference (docs/importing.md, "On a
Dask cluster"). The root must be storage every worker sees; the CSV paths must open on every
worker.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/import_dask.py /tmp/registry
"""

import os
import sys

import numpy as np
from distributed import Client, LocalCluster

import timef
import timef.dask


def write_inputs(directory, count=4):
    """CSV exports of a wearable: 25 Hz pulse and skin temperature, some pulse cells empty."""
    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(0)
    paths = []
    for i in range(count):
        path = os.path.join(directory, f"subject{i + 1}.csv")
        with open(path, "w") as f:
            f.write("time (s),Pulse (bpm),Temp skin (degC)\n")
            for step in range(250):
                pulse = "" if step % 50 == 49 else f"{60 + 10 * rng.random():.1f}"
                f.write(f"{step / 25},{pulse},{33 + rng.normal() / 10:.3f}\n")
        paths.append(path)
    return paths


def main(root):
    paths = write_inputs(os.path.join(root, "inputs"))
    card = {"name": "Wearable", "description": "CSV exports imported on Dask",
            "license": "CC0-1.0"}
    cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                           dashboard_address=None, local_directory=os.path.join(root, "dask"))
    with cluster, Client(cluster) as client:
        release = timef.dask.import_files(client, "csv", paths, root=root,
                                          dataset="examples/wearable", version="1.0.0",
                                          card=card)
    print(release)
    with timef.TimeFReader.open(release) as r:
        for ref in sorted(r.manifest["payload_sources"]):
            print("part", ref)
        record = next(iter(r.iter_records()))
        pulse = record.signals[0]
        print(f"record {record.id} from {os.path.basename(record.metadata['source_file'])}: "
              f"{pulse.name} {pulse.spec.unit}, {pulse.n_values} values, "
              f"{int(pulse.to_numpy().mask.sum())} null")


if __name__ == "__main__":
    main(sys.argv[1])
