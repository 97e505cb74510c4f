#!/usr/bin/python3
"""Writes a small dataset of N-D signals (a 2-channel x 8-bin spectrogram per step, and a
nullable heart rate with gaps) on the Zarr values backend, reads one window back and prints it.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/write_spectrogram_zarr.py /tmp/registry

The values land in <release>/time_series.zarr/, one Zarr v3 array per spec_type, which
zarr-python, xarray or zarrita open directly (docs/format.md §8).
"""

import sys

import numpy as np
import timef

STEPS = 120
RATE_HZ = 4


def main(root):
    dataset = timef.Dataset("examples/spectrogram-zarr", "1.0.0")
    record = dataset.add_record(timef.Record(start_time_us=1_700_000_000_000_000))
    analyzer = record.add_source("analyzer")
    spec = timef.Spec("spectrogram", dtype="float32", value_shape=[2, 8],
                      dimension_names=["channel", "freq"])
    t = np.arange(STEPS, dtype=np.float32)[:, None, None]
    freq = np.arange(8, dtype=np.float32)[None, None, :]
    channel = np.arange(2, dtype=np.float32)[None, :, None]
    power = np.exp(-0.3 * freq) * (1 + 0.5 * np.sin(0.2 * t + channel))
    axis = timef.TimeAxis.from_rate(RATE_HZ)
    analyzer.add_signal(timef.Signal("spectrogram", spec, axis, power.astype(np.float32)))
    rate = np.linspace(60, 75, STEPS)
    valid = np.ones(STEPS, dtype=bool)
    valid[[5, 6, 40]] = False  # sensor dropouts: null steps
    hr = timef.Spec("heart_rate", dtype="float64", unit="bpm", nullable=True)
    analyzer.add_signal(timef.Signal("heart_rate", hr, axis, np.ma.masked_array(rate, ~valid)))
    release = timef.write(dataset, root, values_backend="zarr", card={
        "name": "Example spectrogram on Zarr",
        "description": "One synthetic 2x8 spectrogram and a heart rate with gaps.",
        "license": "CC0-1.0", "domains": ["general"], "tags": ["example"]})
    with timef.TimeFReader.open(release) as reader:
        reader.verify()
        signal = reader.get(timef.Signal, dataset.records[0].signals[0].id)
        window = signal.read_steps(10, 14)
        print(release)
        print(f"backend {reader.manifest['values_backend']}, window shape {window.shape}")


if __name__ == "__main__":
    main(sys.argv[1])
