"""timef.torch datasets in DataLoaders with worker processes (fork and spawn) and samplers."""

import multiprocessing

import numpy as np
import pytest
import timef
import torch
from torch.utils.data import DataLoader, DistributedSampler

from timef.torch import SignalDataset, TaskDataset


def expected_values(hello):
    with timef.TimeFReader.open(hello) as r:
        out = {}
        for record in r.iter_records(load=timef.LoadPlan.ALL_EAGER):
            for s in record.signals:
                if s.spec.dtype != "str":
                    out[s.id] = (record.id, s.to_numpy())
        return out


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_every_signal_exactly_once(hello, context):
    expected = expected_values(hello)
    dataset = SignalDataset(hello)
    loader = DataLoader(dataset, batch_size=None, num_workers=2,
                        multiprocessing_context=multiprocessing.get_context(context))
    seen = []
    for item in loader:
        sid = item["signal_id"]
        seen.append(sid)
        record_id, want = expected[sid]
        assert item["record_id"] == record_id
        got = item["values"].numpy()
        if isinstance(want, np.ma.MaskedArray):
            valid = item["valid"].numpy()
            np.testing.assert_array_equal(valid, ~np.ma.getmaskarray(want))
            want = want.data
            got = np.where(valid, got, want)
        assert got.shape == want.shape
        assert got.astype(want.dtype).tobytes() == want.tobytes()
    assert sorted(seen) == sorted(expected)


def test_spec_type_filter_and_dtypes(hello):
    ecg = SignalDataset(hello, spec_type="ecg")
    assert len(ecg) == 3 and all(ecg[i]["values"].dtype == torch.float32 for i in range(len(ecg)))
    every = SignalDataset(hello)
    dtypes = {every[i]["values"].dtype for i in range(len(every))}
    assert torch.int64 in dtypes and torch.bool in dtypes  # uint32 widened; bool kept


def test_distributed_sampler_splits_the_signals(hello):
    dataset = SignalDataset(hello)
    parts = []
    for rank in range(2):
        sampler = DistributedSampler(dataset, num_replicas=2, rank=rank, shuffle=True, seed=3)
        parts.append([dataset[i]["signal_id"] for i in sampler])
    assert set(parts[0]) | set(parts[1]) == {dataset[i]["signal_id"] for i in range(len(dataset))}


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_task_dataset(hello, context):
    with timef.TimeFReader.open(hello) as r:
        tasks = {t.id: t for t in r.read_tasks()}
    dataset = TaskDataset(hello, split="train")
    assert {dataset[i]["task_id"] for i in range(len(dataset))} == {
        t.id for t in tasks.values() if t.split == "train"}
    loader = DataLoader(dataset, batch_size=None, num_workers=2,
                        multiprocessing_context=multiprocessing.get_context(context))
    for item in loader:
        task = tasks[item["task_id"]]
        assert item["task_type"] == task.task_type
        assert item["prompt"] == timef.read_value(task.prompt)
        assert item["inputs"] == [rec.id for rec in task.inputs]
    assert len(TaskDataset(hello)) == len(tasks)


def test_task_dataset_reads_tasks_in_batches(hello):
    dataset = TaskDataset(hello, batch_size=3)
    reader = dataset._open()
    calls = []
    get_many = reader.get_many

    def counting(kind, ids, **kw):
        calls.append(list(ids))
        return get_many(kind, ids, **kw)
    reader.get_many = counting
    order = [9, 0, 4, 1, 8, 2, 3, 5, 6, 7, -1, 3]
    items = [dataset[i] for i in order]
    ids = dataset._ids
    assert calls == [ids[9:], ids[0:3], ids[3:6], ids[6:9]]  # one get_many per batch, once
    with timef.TimeFReader.open(hello) as r:
        for index, item in zip(order, items):
            task = r.get(timef.Task, ids[index])
            assert item["task_id"] == task.id and item["task_type"] == task.task_type
            assert item["prompt"] == timef.read_value(task.prompt)
            assert item["inputs"] == [rec.id for rec in task.inputs]
    item = dataset[0]
    item["inputs"].append(99)
    assert dataset[0]["inputs"] == items[1]["inputs"]  # items handed out are copies
    with pytest.raises(IndexError):
        dataset[10]
    with pytest.raises(timef.ValidationError):
        TaskDataset(hello, batch_size=0)
    assert TaskDataset(hello).preload()._items.keys() == {0}
