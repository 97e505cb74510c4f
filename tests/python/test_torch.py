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
