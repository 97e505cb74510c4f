#!/usr/bin/python3
"""Reads a release: records and their leads, a batch of series, a window, a task by ID and the task
table.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/read_ecg.py RELEASE_DIR
"""

import sys

import numpy as np
import timef


def main(release):
    # Batch reads (load_values, eager load plans) decode on two threads.
    with timef.TimeFReader.open(release, decode_threads=2) as reader:
        print(reader.manifest["metadata"]["name"])
        ids = []
        for record in reader.iter_records():
            leads = record.signals
            ids += [lead.id for lead in leads]
            first = leads[0].to_numpy()
            print(f"record {record.id}: {len(leads)} leads, {first.shape[0]} samples, "
                  f"{leads[0].spec.unit}, lead {leads[0].name} mean {first.mean():+.4f}")
        arrays = reader.load_values(ids)  # a training batch, in storage order
        print(f"{len(arrays)} series loaded together: {sum(a.shape[0] for a in arrays)} values")
        # A values-only epoch: every series in storage order, 16 at a time, no record built.
        epoch = [(len(batch), sum(a.shape[0] for a in arrays))
                 for batch, arrays in reader.iter_values(batch_size=16)]
        print(f"values-only epoch: {sum(n for n, _ in epoch)} series in {len(epoch)} batches, "
              f"{sum(v for _, v in epoch)} values")
        # The same batch decoded into one padded array you keep (e.g. a pinned input tensor):
        # row i gets series i from its start, no array is made per series.
        batch = np.zeros((len(ids), max(a.shape[0] for a in arrays)), dtype=np.float32)
        steps = reader.load_values_into(ids, batch)
        same = all(row[:n].tobytes() == a.tobytes() for row, n, a in zip(batch, steps, arrays))
        print(f"{len(ids)} series into one {batch.shape} array: {int(steps.sum())} values, "
              f"equal: {same}")
        window = reader.get(timef.Signal, 1).read_steps(0, 500)
        print(f"signal 1, steps 0-500: {window.shape[0]} values")
        task = reader.get(timef.AnswerTask, 2)
        print(f"task {task.id}: {timef.read_value(task.prompt)} -> "
              f"{timef.read_values(task.targets)}")
        table = reader.read_task_table().to_pydict()
        print(f"{len(table['task_id'])} tasks: {sorted(set(table['type']))}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: read_ecg.py RELEASE_DIR")
    main(sys.argv[1])
