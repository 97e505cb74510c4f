"""timef.torch datasets in DataLoaders with worker processes (fork and spawn) and samplers."""

import multiprocessing
import pickle

import numpy as np
import pytest
import timef
import torch
from torch.utils.data import DataLoader, DistributedSampler

from timef.torch import SignalDataset, TaskDataset, _to_tensor, collate_crop, collate_pad


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
    """Items come from the task table and one read of the target table; with values, the input
    records' signals are read batch_size tasks at a time, one get_many of records per batch."""
    dataset = TaskDataset(hello, batch_size=3, load_values=True)
    reader = dataset._open()
    calls = []
    get_many, read_target_table = reader.get_many, reader.read_target_table

    def counting(kind, ids, **kw):
        calls.append((kind, list(ids)))
        return get_many(kind, ids, **kw)

    def counting_targets(**kw):
        calls.append(("targets", kw))
        return read_target_table(**kw)
    reader.get_many, reader.read_target_table = counting, counting_targets
    order = [9, 0, 4, 1, 8, 2, 3, 5, 6, 7, -1, 3]
    items = [dataset[i] for i in order]

    def records(at, to):
        return (timef.Record, sorted({r for i in range(at, to) for r in items[order.index(i)]
                                      ["inputs"]}))
    targets = ("targets", {"split": None, "task_type": None})
    assert calls == [targets, records(9, 10), records(0, 3), records(3, 6), records(6, 9)]
    ids = dataset._ids
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

    calls.clear()
    plain = TaskDataset(hello, split="train")
    reader = plain._open()
    reader.get_many, reader.read_target_table = counting, counting_targets
    plain.__getitems__(range(len(plain)))
    plain.__getitems__(range(len(plain)))
    assert calls == [("targets", {"split": "train", "task_type": None})]  # no task hydrated


def _native_target(value):
    value = timef.read_value(value)
    if isinstance(value, (timef.Record, timef.Signal)):
        return value.id
    if isinstance(value, timef.ScopedSpan):
        return (value.kind, value.start, value.end, [s.id for s in value.signals])
    return value


def _items_from_hydrated_tasks(release, classes, **filters):
    """task ID -> (item without values, {name: numpy values} per input record): what
    TaskDataset's items hold, worked out from hydrated tasks (get_many) and signal values."""
    with timef.TimeFReader.open(release) as r:
        ids = r.read_task_table(**filters).to_pydict()["task_id"]
        out = {}
        for task in r.get_many(timef.Task, ids):
            targets = None if task.targets is None else [_native_target(t) for t in task.targets]
            item = {"task_id": task.id, "task_type": task.task_type,
                    "prompt": timef.read_value(task.prompt),
                    "inputs": [rec.id for rec in task.inputs], "targets": targets}
            if task.task_type == "scalar_prediction" and targets is not None:
                item["targets"] = torch.tensor([float(t) for t in targets], dtype=torch.float64)
            if task.task_type == "classification":
                labels = tuple(classes.index(t) for t in targets or [])
                item["label"] = None if not labels else labels[0] if len(labels) == 1 else labels
            values = [{s.name: r.signal_values(s.id).to_numpy() for s in rec.signals
                       if s.spec.dtype != "str" and s.has_values} for rec in task.inputs]
            out[task.id] = (item, values)
        return out


@pytest.mark.parametrize("filters", [{}, {"split": "train"}, {"task_type": "classification"},
                                     {"task_type": "scalar_prediction"}])
def test_task_items_equal_the_hydrated_tasks(registry, labelled, filters):
    """Items (from the task and target tables) hold exactly what the hydrated tasks hold: every
    target kind (text, numbers, booleans, records, signals, the four span kinds), a task of no
    inline targets (None) and one of an explicit empty answer ([]), imported tasks (a child
    release, parent IDs) and Zarr values, in the item structure and dtypes of before."""
    releases = [str(registry / "timef" / name) for name in
                ("hello-world/1.0.0", "hello-world/1.1.0", "hello-child/1.0.0",
                 "hello-zarr/1.0.0")] + [labelled]
    kinds = set()
    for release in releases:
        plain = TaskDataset(release, **filters)
        full = TaskDataset(release, load_values=True, batch_size=2, **filters)
        want = _items_from_hydrated_tasks(release, list(plain.classes), **filters)
        assert [plain[i]["task_id"] for i in range(len(plain))] == sorted(want)
        for i in range(len(plain)):
            item, with_values = plain[i], full[i]
            expected, values = want[item["task_id"]]
            assert list(item) == list(expected)
            for key, value in expected.items():
                if isinstance(value, torch.Tensor):
                    assert _same_tensor(item[key], value), key
                else:
                    assert item[key] == value and type(item[key]) is type(value), key
            targets = expected["targets"]
            kinds.update([type(targets).__name__] if isinstance(targets, torch.Tensor) else
                         (type(t).__name__ for t in targets or []))
            assert set(with_values) - set(item) <= {"values", "valid"}
            assert [sorted(v) for v in with_values["values"]] == [sorted(v) for v in values]
            valid = with_values.get("valid", [{} for _ in values])
            for got, got_valid, record in zip(with_values["values"], valid, values):
                for name, array in record.items():
                    tensor, steps = _to_tensor(array)  # the conversion items have always had
                    assert _same_tensor(got[name], tensor), name
                    assert (steps is None and name not in got_valid) or torch.equal(
                        got_valid[name], steps), name
    if not filters:
        assert kinds == {"str", "int", "bool", "tuple", "Tensor"}  # floats: scalar_prediction


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
    validation = TaskDataset(labelled, task_type="scalar_prediction")
    assert len(validation) == len(RHYTHMS) and validation.classes == test.classes
    assert {validation[i]["task_type"] for i in range(len(validation))} == {"scalar_prediction"}


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
        storage = r.signal_ids(order="values")
    dataset = SignalDataset(labelled, split="test")
    assert {dataset[i]["record_id"] for i in range(len(dataset))} == test_records
    assert len(dataset) == 2 * len(test_records)
    ids = [dataset[i]["signal_id"] for i in range(len(dataset))]
    assert ids == sorted(ids, key=storage.index)  # the order the values are stored in
    one = SignalDataset(labelled, record_ids=[2, 3], spec_type="ecg")
    assert [one[i]["record_id"] for i in range(len(one))] == [2, 3]
    both = SignalDataset(labelled, record_ids=[1, 3], split="test")
    assert {both[i]["record_id"] for i in range(len(both))} == {1, 3} & test_records
    with pytest.raises(timef.NotFoundError):
        SignalDataset(labelled, record_ids=[99])
    assert len(SignalDataset(hello, record_ids=[])) == 0


def test_signal_dataset_serves_the_order_values_are_stored_in(labelled):
    # The writer stores signals by (spec_type, name, ID): every record's "lead" (ecg), then every
    # record's "flag"; records first would alternate them, a parked page per signal name.
    with timef.TimeFReader.open(labelled) as r:
        by_records = r.signal_ids()
        by_values = r.signal_ids(order="values")
        records = r.record_ids()
    dataset = SignalDataset(labelled)
    items = [dataset[i] for i in range(len(dataset))]
    assert [item["signal_id"] for item in items] == by_values != by_records
    assert sorted(by_values) == sorted(by_records)
    kinds = [item["values"].dtype for item in items]
    assert kinds == [torch.float32] * len(records) + [torch.int32] * len(records)
    assert [item["record_id"] for item in items] == records + records
    with timef.TimeFReader.open(labelled) as r, pytest.raises(timef.ValidationError) as e:
        r.signal_ids(order="rows")
    assert "signal_ids" in str(e.value) and "'rows'" in str(e.value)


def check_padded(batch_values, lengths, mask, originals, starts=None):
    size = batch_values.shape[1]
    for i, t in enumerate(originals):
        start = 0 if starts is None else starts[i]
        take = min(t.shape[0] - start, size)
        assert lengths[i] == take
        assert mask[i].tolist() == [True] * take + [False] * (size - take)
        # Bit for bit (the ECG leads hold NaN samples).
        assert batch_values[i, :take].numpy().tobytes() == t[start:start + take].numpy().tobytes()
        assert not batch_values[i, take:].any()


def test_collate_pad_signals_of_every_dtype(hello):
    dataset = SignalDataset(hello)
    items = [dataset[i] for i in range(len(dataset)) if "valid" not in dataset[i]]
    by_dtype = {}
    for item in items:
        by_dtype.setdefault(item["values"].dtype, []).append(item)
    assert {torch.bool, torch.int8, torch.int32, torch.int64, torch.float32} <= set(by_dtype)
    for dtype, group in by_dtype.items():
        group = group + [dict(group[0], values=group[0]["values"][:3])]  # a shorter one
        batch = collate_pad(group)
        assert batch["values"].dtype == dtype
        assert batch["values"].shape[0] == len(group)
        assert batch["values"].shape[1] == max(g["values"].shape[0] for g in group)
        check_padded(batch["values"], batch["lengths"], batch["mask"],
                     [g["values"] for g in group])
        assert batch["signal_id"].dtype == torch.int64
        assert batch["signal_id"].tolist() == [g["signal_id"] for g in group]


def test_collate_nd_values_and_crop_windows():
    rng = torch.Generator().manual_seed(5)
    items = [{"values": torch.randint(-100, 100, (n, 2, 3), dtype=torch.int16, generator=rng),
              "id": i, "name": f"s{i}"} for i, n in enumerate([7, 12, 4])]
    padded = collate_pad(items)
    assert padded["values"].shape == (3, 12, 2, 3) and padded["values"].dtype == torch.int16
    check_padded(padded["values"], padded["lengths"], padded["mask"],
                 [i["values"] for i in items])
    assert padded["name"] == ["s0", "s1", "s2"] and padded["id"].tolist() == [0, 1, 2]
    fixed = collate_crop(5)(items)
    assert fixed["values"].shape == (3, 5, 2, 3)
    check_padded(fixed["values"], fixed["lengths"], fixed["mask"], [i["values"] for i in items])
    starts = set()
    crop = collate_crop(5, random=True, generator=torch.Generator().manual_seed(1))
    for _ in range(40):
        batch = crop(items)
        found = []
        for i, item in enumerate(items):
            t = item["values"]
            options = [s for s in range(max(t.shape[0] - 5, 0) + 1)
                       if torch.equal(batch["values"][i, :batch["lengths"][i]], t[s:s + 5])]
            assert options, "a random window is a contiguous slice of the item"
            found.append(options[0])
        check_padded(batch["values"], batch["lengths"], batch["mask"],
                     [i["values"] for i in items], found)
        starts.add(tuple(found))
    assert len(starts) > 5  # the windows move
    again = pickle.loads(pickle.dumps(crop))  # as into a spawned worker
    assert again.n == 5 and torch.equal(again(items)["values"], crop(items)["values"])


def test_collate_crops_valid_with_its_values():
    items = [{"values": torch.arange(n), "valid": torch.arange(n) % 3 != 0} for n in (9, 20)]
    batch = collate_crop(6, random=True, generator=torch.Generator().manual_seed(2))(items)
    for i in range(2):
        real = batch["mask"][i]
        assert torch.equal(batch["valid"][i][real], batch["values"][i][real] % 3 != 0)
        assert not batch["valid"][i][~real].any()


def test_collate_refuses_mixed_batches():
    with pytest.raises(timef.ValidationError, match="dtypes"):
        collate_pad([{"values": torch.zeros(3)}, {"values": torch.zeros(3, dtype=torch.int32)}])
    with pytest.raises(timef.ValidationError, match="value shapes"):
        collate_pad([{"values": torch.zeros(3, 2)}, {"values": torch.zeros(3, 4)}])
    with pytest.raises(timef.ValidationError, match="different keys"):
        collate_pad([{"values": torch.zeros(3), "a": 1}, {"values": torch.zeros(3)}])
    with pytest.raises(timef.ValidationError):
        collate_crop(0)


def test_task_batches_in_a_dataloader(labelled):
    dataset = TaskDataset(labelled, split="train", load_values=True)
    loader = DataLoader(dataset, batch_size=3, num_workers=2, collate_fn=collate_crop(40),
                        multiprocessing_context=multiprocessing.get_context("spawn"))
    seen = []
    for batch in loader:
        assert batch["label"].dtype == torch.int64 and batch["task_id"].dtype == torch.int64
        lead = batch["values"][0]["lead"]
        assert lead.shape == (len(batch["task_id"]), 40) and lead.dtype == torch.float32
        assert batch["values"][0]["flag"].dtype == torch.int32
        for row, task_id in enumerate(batch["task_id"].tolist()):
            item = dataset[dataset._ids.index(task_id)]
            assert torch.equal(lead[row], item["values"][0]["lead"][:40])
            assert batch["label"][row] == item["label"]
        seen += batch["task_id"].tolist()
    assert sorted(seen) == sorted(dataset._ids)
    padded = collate_pad([dataset[0], dataset[1]])
    assert padded["lengths"][0]["lead"].tolist() == [
        dataset[i]["values"][0]["lead"].shape[0] for i in (0, 1)]


def _same_tensor(a, b):
    # By bytes: NaN steps are equal to themselves here.
    return a.dtype == b.dtype and a.shape == b.shape and a.numpy().tobytes() == b.numpy().tobytes()


def _same_item(a, b):
    assert set(a) == set(b)
    for key in a:
        if isinstance(a[key], torch.Tensor):
            assert _same_tensor(a[key], b[key]), key
        elif key in ("values", "valid"):
            assert [sorted(r) for r in a[key]] == [sorted(r) for r in b[key]]
            for ra, rb in zip(a[key], b[key]):
                for name in ra:
                    assert _same_tensor(ra[name], rb[name]), (key, name)
        else:
            assert a[key] == b[key], key


def test_batched_items_equal_single_items_and_reach_the_loader(hello, labelled, monkeypatch):
    """__getitems__ (a DataLoader's batch in one load_values call) gives exactly the items of
    __getitem__, nullable signals and every dtype included, in the order of the indices."""
    signals = SignalDataset(hello)
    order = [3, 0, len(signals) - 1, 1, 3]
    for got, i in zip(signals.__getitems__(order), order):
        _same_item(got, signals[i])
    tasks = TaskDataset(labelled, split="train", load_values=True)
    order = [4, 1, 0, 1]
    for got, i in zip(tasks.__getitems__(order), order):
        _same_item(got, tasks[i])
    assert signals.__getitems__([]) == [] and tasks.__getitems__([]) == []
    with pytest.raises(IndexError):
        tasks.__getitems__([0, len(tasks)])

    # A DataLoader with a batch size asks for the batch at once: one read per batch
    # (load_values, or load_values_into for a batch decoded into its tensor).
    reader = signals._open()
    calls = []
    real = type(reader).load_values
    monkeypatch.setattr(type(reader), "load_values",
                        lambda self, ids, **kw: calls.append(list(ids)) or real(self, ids, **kw))
    real_into = type(reader).load_values_into
    monkeypatch.setattr(type(reader), "load_values_into",
                        lambda self, ids, out, **kw: calls.append(list(ids))
                        or real_into(self, ids, out, **kw))
    loader = DataLoader(signals, batch_size=4, collate_fn=lambda items: items)
    seen = [item["signal_id"] for batch in loader for item in batch]
    assert seen == [signals[i]["signal_id"] for i in range(len(signals))]
    assert [len(c) for c in calls] == [min(4, len(signals) - at)
                                       for at in range(0, len(signals), 4)]


def _worker_decode_threads(items):
    # A collate function runs in the worker: it reports the lanes of that worker's reader.
    return torch.utils.data.get_worker_info().dataset._open()._decode_threads


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_decode_threads_default_to_two_outside_workers_and_one_inside(labelled, context):
    signals = SignalDataset(labelled)
    assert signals._open()._decode_threads == min(2, len(__import__("os").sched_getaffinity(0)))
    loader = DataLoader(signals, batch_size=4, num_workers=2, collate_fn=_worker_decode_threads,
                        multiprocessing_context=multiprocessing.get_context(context))
    assert set(loader) == {1}
    pinned = SignalDataset(labelled, decode_threads=3)
    assert pinned._open()._decode_threads == 3
    loader = DataLoader(pinned, batch_size=4, num_workers=1, collate_fn=_worker_decode_threads,
                        multiprocessing_context=multiprocessing.get_context(context))
    assert set(loader) == {3}


@pytest.fixture(scope="module")
def long_leads(tmp_path_factory):
    """Six records of two 6,000-step leads and a classification task each: a batch of them is
    heavy enough for the reader to split it over two decode lanes."""
    root = tmp_path_factory.mktemp("long-leads")
    dataset = timef.Dataset("tests/long-leads", "1.0.0")
    spec = timef.Spec("ecg", dtype="float32", unit="mV")
    rng = np.random.default_rng(7)
    for i in range(6):
        record = dataset.add_record(timef.Record(start_time_us=i * 10**9))
        source = record.add_source("ecg")
        axis = timef.TimeAxis.from_rate(500)
        for name in ("I", "II"):
            steps = np.round(rng.normal(size=6000), 3).astype(np.float32)
            source.add_signal(timef.Signal(name, spec, axis, steps))
        dataset.add_task(timef.ClassificationTask(inputs=[record], targets=[RHYTHMS[i % 3]],
                                                  target_schema="rhythm-v1", split="train"))
    return timef.write(dataset, root, card={"name": "long leads", "description": "tests",
                                            "license": "CC0-1.0", "domains": ["cardiology"]})


def test_decode_threads_give_the_same_items(long_leads):
    expected = expected_values(long_leads)
    for make in (lambda n: SignalDataset(long_leads, decode_threads=n),
                 lambda n: TaskDataset(long_leads, load_values=True, decode_threads=n)):
        one, two = make(1), make(2)
        assert one._open()._decode_threads == 1 and two._open()._decode_threads == 2
        order = list(range(len(one)))[::-1]
        for a, b in zip(one.__getitems__(order), two.__getitems__(order)):
            _same_item(a, b)
    signals = SignalDataset(long_leads, decode_threads=2)
    for item in signals.__getitems__(list(range(len(signals)))):
        assert item["values"].numpy().tobytes() == expected[item["signal_id"]][1].tobytes()


@pytest.mark.parametrize("bad", [True, 2.0, "2"])
def test_decode_threads_must_be_an_int(labelled, bad):
    with pytest.raises(timef.ValidationError, match="decode_threads"):
        SignalDataset(labelled, decode_threads=bad)
    with pytest.raises(timef.ValidationError, match="decode_threads"):
        TaskDataset(labelled, decode_threads=bad)
    with pytest.raises(timef.ValidationError, match="decode_threads"):
        SignalDataset(labelled, decode_threads=0)


def _spec_types(release):
    with timef.TimeFReader.open(release) as r:
        out = {}
        for record in r.iter_records():
            for s in record.signals:
                if s.spec.dtype != "str" and s.has_values:
                    out[s.spec.spec_type] = s.spec
        return out


def test_a_batch_of_one_kind_is_decoded_into_the_batch_tensor(hello):
    """SignalDataset.__getitems__ over signals of one dtype and value shape without nulls
    decodes them into one zero-padded tensor (their values are its rows), and collate_pad hands
    that tensor out as the batch's values without copying, exactly once."""
    expected = expected_values(hello)
    direct = 0
    direct_batches = []  # spec types of several signals
    for spec_type, spec in _spec_types(hello).items():
        dataset = SignalDataset(hello, spec_type=spec_type)
        order = list(range(len(dataset)))[::-1]
        items = dataset.__getitems__(order)
        for item, i in zip(items, order):
            _same_item(item, dataset[i])
            want = expected[item["signal_id"]][1]
            if not isinstance(want, np.ma.MaskedArray):
                got = item["values"].numpy()
                assert got.astype(want.dtype).tobytes() == want.tobytes()
        batch = collate_pad(items)
        check_padded(batch["values"], batch["lengths"], batch["mask"],
                     [item["values"] for item in items])
        fused = spec.dtype not in ("uint16", "uint32") and not spec.nullable
        assert (batch["values"].data_ptr() == items[0]["values"].data_ptr()) == fused, spec_type
        direct += fused
        if fused:
            # Once: the same items again, or reordered, are copied into a new tensor.
            again = collate_pad(items)
            assert again["values"].data_ptr() != batch["values"].data_ptr()
            assert again["values"].numpy().tobytes() == batch["values"].numpy().tobytes()
            if len(items) > 1:
                items = dataset.__getitems__(order)
                reordered = collate_pad(items[::-1])
                assert reordered["values"].data_ptr() != items[-1]["values"].data_ptr()
                check_padded(reordered["values"], reordered["lengths"], reordered["mask"],
                             [item["values"] for item in items[::-1]])
                part = collate_pad(items[:1])
                assert part["values"].data_ptr() != items[0]["values"].data_ptr()
                check_padded(part["values"], part["lengths"], part["mask"], [items[0]["values"]])
                direct_batches.append(spec_type)
            # A crop from step 0 as wide as the batch takes the buffer too; a narrower one copies.
            items = dataset.__getitems__(order)
            longest = max(item["values"].shape[0] for item in items)
            cropped = collate_crop(longest)(items)
            assert cropped["values"].data_ptr() == items[0]["values"].data_ptr()
            items = dataset.__getitems__(order)
            narrow = collate_crop(max(1, longest - 1))(items)
            check_padded(narrow["values"], narrow["lengths"], narrow["mask"],
                         [item["values"] for item in items])
    assert direct >= 3 and direct_batches


def test_task_batches_of_one_layout_are_decoded_into_the_batch_tensors(long_leads, labelled):
    for release, fused in ((long_leads, True), (labelled, False)):  # labelled: a uint16 flag
        dataset = TaskDataset(release, task_type="classification", load_values=True)
        order = [3, 0, 5, 1][:len(dataset)]
        items = dataset.__getitems__(order)
        for item, i in zip(items, order):
            _same_item(item, dataset[i])
        batch = collate_pad(items)
        for name in items[0]["values"][0]:
            leaf = batch["values"][0][name]
            check_padded(leaf, batch["lengths"][0][name], batch["mask"][0][name],
                         [item["values"][0][name] for item in items])
            assert (leaf.data_ptr() == items[0]["values"][0][name].data_ptr()) == fused, name


def test_batch_tensors_reach_the_loader_from_workers(long_leads):
    expected = expected_values(long_leads)
    dataset = SignalDataset(long_leads)
    loader = DataLoader(dataset, batch_size=5, num_workers=2, collate_fn=collate_pad,
                        multiprocessing_context=multiprocessing.get_context("spawn"))
    seen = []
    for batch in loader:
        for row, (sid, n) in enumerate(zip(batch["signal_id"].tolist(),
                                           batch["lengths"].tolist())):
            assert batch["values"][row, :n].numpy().tobytes() == expected[sid][1].tobytes()
            assert not batch["values"][row, n:].any()
            seen.append(sid)
    assert sorted(seen) == sorted(expected)
