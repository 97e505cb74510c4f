#!/usr/bin/python3
"""Writes a small 12-lead ECG dataset with classification and answer tasks into a registry root
and prints the release directory.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/write_ecg.py /tmp/registry
"""

import sys

import numpy as np
import timef

LEADS = ["I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3", "V4", "V5", "V6"]
RATE_HZ = 500
SECONDS = 10
RHYTHMS = ["normal", "af", "normal", "af"]


def lead_values(record_index, lead_index):
    """A synthetic lead, generated only when the writer asks for it."""
    def load():
        t = np.arange(RATE_HZ * SECONDS, dtype=np.float64) / RATE_HZ
        beat_hz = 1.2 + 0.3 * record_index
        wave = np.sin(2 * np.pi * beat_hz * t) * (0.5 + 0.05 * lead_index)
        return wave.astype(np.float32)
    return load


def main(root):
    dataset = timef.Dataset("examples/ecg-python", "1.0.0")
    spec = timef.Spec("ecg", dtype="float32", unit="mV")
    for i, rhythm in enumerate(RHYTHMS):
        record = dataset.add_record(timef.Record(start_time_us=1_700_000_000_000_000 + i * 10**9,
                                                 metadata={"patient": f"p{i:03d}"}))
        device = record.add_source("ecg")
        axis = timef.TimeAxis.from_rate(RATE_HZ)  # one clock for the twelve leads
        for j, lead in enumerate(LEADS):
            device.add_signal(timef.Signal(lead, spec, axis, lead_values(i, j),
                                           n_values=RATE_HZ * SECONDS))
        record.annotate("rhythm", rhythm)
        dataset.add_task(timef.ClassificationTask(
            inputs=[record], targets=[rhythm], target_schema="rhythm-v1",
            prompt="Which rhythm does this ECG show: normal or af?",
            split="train" if i < 3 else "test"))
        dataset.add_task(timef.AnswerTask(
            inputs=[record], prompt="Is the rhythm irregular?",
            targets=["yes" if rhythm == "af" else "no"], split="train" if i < 3 else "test"))
    # threads=2: pages compress while the next row group loads (same bytes for any count).
    release = timef.write(dataset, root, threads=2, card={
        "name": "Example 12-lead ECG (Python)",
        "description": "Four synthetic 10-second 12-lead ECGs with rhythm tasks.",
        "license": "CC0-1.0", "domains": ["cardiology"]})
    print(release)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: write_ecg.py ROOT")
    main(sys.argv[1])
