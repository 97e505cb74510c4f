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


RHYTHMS = ["normal", "af", "noise", "af", "normal", "af", "normal"]


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    """Seven records of two signals of different lengths, a classification task each (three
    classes, train/test), and scalar_prediction tasks; written by the module's writer."""
    root = tmp_path_factory.mktemp("labelled")
    dataset = timef.Dataset("tests/labelled", "1.0.0")
    ecg = timef.Spec("ecg", dtype="float32", unit="mV")
    flag = timef.Spec("flag", dtype="uint16")
    for i, rhythm in enumerate(RHYTHMS):
        record = dataset.add_record(timef.Record(start_time_us=i * 10**9))
        source = record.add_source("ecg")
        axis = timef.TimeAxis.from_rate(100)
        source.add_signal(timef.Signal("lead", ecg, axis,
                                       np.arange(50 + 10 * i, dtype=np.float32) + i))
        source.add_signal(timef.Signal("flag", flag, axis, np.full(50 + 10 * i, i, np.uint16)))
        dataset.add_task(timef.ClassificationTask(inputs=[record], targets=[rhythm],
                                                  target_schema="rhythm-v1",
                                                  split="test" if i % 3 == 2 else "train"))
        dataset.add_task(timef.ScalarPredictionTask(inputs=[record], targets=[60.5 + i],
                                                    split="validation"))
    return timef.write(dataset, root, card={"name": "labelled", "description": "tests",
                                            "license": "CC0-1.0", "domains": ["cardiology"]})


def test_supervised_items(labelled):
    dataset = TaskDataset(labelled, split="train", load_values=True)
    assert dataset.classes == ("af", "noise", "normal")
    with timef.TimeFReader.open(labelled) as r:
        tasks = {t.id: t for t in r.read_tasks(split="train")}
        assert len(dataset) == len(tasks) == 5
        for i in range(len(dataset)):
            item = dataset[i]
            task = tasks[item["task_id"]]
            assert set(item) == {"task_id", "task_type", "prompt", "inputs", "targets", "label",
                                 "values"}
            target = timef.read_value(task.targets[0])
            assert item["targets"] == [target]
            assert dataset.classes[item["label"]] == target
            (record,) = task.inputs
            (values,) = item["values"]
            assert sorted(values) == ["flag", "lead"]
            for signal in record.signals:
                want = signal.to_numpy()
                got = values[signal.name]
                assert got.dtype == (torch.int32 if want.dtype == np.uint16 else torch.float32)
                assert got.numpy().astype(want.dtype).tobytes() == want.tobytes()
                got.add_(1)  # writable, and a copy of nothing the reader keeps
    assert dataset[0]["values"][0]["lead"][0] == 0


def test_labels_are_the_same_in_every_split_and_process(labelled):
    test = TaskDataset(labelled, split="test")
    assert test.classes == ("af", "noise", "normal")
    labels = {item["task_id"]: item["label"] for item in
              DataLoader(test, batch_size=None, num_workers=2,
                         multiprocessing_context=multiprocessing.get_context("spawn"))}
    assert sorted(labels.values()) == [0, 1]  # af, noise
    assert "values" not in test[0]


def test_regression_targets_and_transform(labelled):
    seen = []

    def transform(item):
        seen.append(item["task_id"])
        return {"y": item["targets"], "x": item["values"][0]["lead"]}
    dataset = TaskDataset(labelled, split="validation", load_values=True, transform=transform)
    item = dataset[2]
    assert set(item) == {"x", "y"} and seen == [dataset._ids[2]]
    assert item["y"].dtype == torch.float64 and item["y"].tolist() == [62.5]
    assert item["x"].shape == (70,)
    with pytest.raises(timef.ValidationError):
        TaskDataset(labelled, transform=3)


def test_signal_dataset_split_and_record_ids(labelled, hello):
    with timef.TimeFReader.open(labelled) as r:
        test_records = {rec.id for t in r.read_tasks(split="test") for rec in t.inputs}
        storage = r.signal_ids()
    dataset = SignalDataset(labelled, split="test")
    assert {dataset[i]["record_id"] for i in range(len(dataset))} == test_records
    assert len(dataset) == 2 * len(test_records)
    ids = [dataset[i]["signal_id"] for i in range(len(dataset))]
    assert ids == sorted(ids, key=storage.index)  # storage order
    one = SignalDataset(labelled, record_ids=[2, 3], spec_type="ecg")
    assert [one[i]["record_id"] for i in range(len(one))] == [2, 3]
    both = SignalDataset(labelled, record_ids=[1, 3], split="test")
    assert {both[i]["record_id"] for i in range(len(both))} == {1, 3} & test_records
    with pytest.raises(timef.NotFoundError):
        SignalDataset(labelled, record_ids=[99])
    assert len(SignalDataset(hello, record_ids=[])) == 0
