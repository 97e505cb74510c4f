#!/usr/bin/python3
"""Training-input throughput of timef.torch over a synthetic ECG-like release: windows as records
(one float32 lead each), one classification task per window.

    PYTHONPATH=build/python /usr/bin/python3 bench/python/train_input.py SCRATCH [--records N]

Writes the release into SCRATCH (once; reused when present) and prints items per second of
TaskDataset (random __getitem__, without values), TaskDataset with values through collate_pad
(batch 32, num_workers=0), the same over an in-memory numpy array (the floor), and the pages an
ordered and a shuffled (timef.torch.Sampler) epoch of SignalDataset decode.
"""

import argparse
import os
import random
import time

import numpy as np
import timef

RATE_HZ = 360
CLASSES = ["N", "V", "A", "L", "R"]


def write_release(root, n_records, window):
    release = os.path.join(root, "bench", "train-input", "1.0.0")
    if os.path.isdir(release):
        return release
    dataset = timef.Dataset("bench/train-input", "1.0.0")
    spec = timef.Spec("ecg", dtype="float32", unit="mV")
    rng = np.random.default_rng(7)
    for i in range(n_records):
        record = dataset.add_record(timef.Record(start_time_us=i * 10**6))
        device = record.add_source("ecg")
        values = rng.standard_normal(window).astype(np.float32)
        device.add_signal(timef.Signal("MLII", spec, timef.TimeAxis.from_rate(RATE_HZ), values))
        dataset.add_task(timef.ClassificationTask(
            inputs=[record], targets=[CLASSES[i % len(CLASSES)]], target_schema="beat-v1",
            split="train" if i % 10 else "test"))
    return timef.write(dataset, root, threads=2, card={
        "name": "bench train input", "description": "synthetic windows", "license": "CC0-1.0",
        "domains": ["cardiology"]})


def per_second(n, seconds):
    return f"{n / seconds:,.0f}/s"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scratch")
    parser.add_argument("--records", type=int, default=4000)
    parser.add_argument("--window", type=int, default=720)
    args = parser.parse_args()
    release = write_release(args.scratch, args.records, args.window)
    from timef.torch import Sampler, SignalDataset, TaskDataset

    dataset = TaskDataset(release)
    order = list(range(len(dataset)))
    random.Random(1).shuffle(order)
    for label in ("cold", "warm"):  # cold: the first epoch reads each batch of tasks once
        start = time.perf_counter()
        for i in order:
            dataset[i]
        seconds = time.perf_counter() - start
        print(f"TaskDataset random __getitem__, no values, {label}: {len(order)} items, "
              f"{seconds / len(order) * 1e6:,.1f} us/item, {per_second(len(order), seconds)}")
    # Pages one epoch of SignalDataset decodes (num_workers=0), by order.
    n = len(SignalDataset(release))
    orders = {"storage order": list(range(n)),
              "timef.torch.Sampler (block 64, window 8)": list(Sampler(range(n), seed=0)),
              "uniform permutation": np.random.default_rng(0).permutation(n).tolist()}
    for label, order in orders.items():
        signals = SignalDataset(release)
        reader = signals._open()
        before = reader.counters()["data_pages_decoded"]
        start = time.perf_counter()
        for i in order:
            signals[i]
        seconds = time.perf_counter() - start
        pages = reader.counters()["data_pages_decoded"] - before
        g = np.asarray(order)
        corr = np.corrcoef(g[:-1], g[1:])[0, 1]
        print(f"SignalDataset epoch, {label}: {pages} pages decoded, neighbour correlation "
              f"{corr:.3f}, {per_second(n, seconds)}")


if __name__ == "__main__":
    main()
