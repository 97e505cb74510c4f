"""PyTorch datasets over a TimeF release.

Both are map-style ``torch.utils.data.Dataset``s, so they work with ``DataLoader`` (any
``num_workers``, fork or spawn start method) and ``DistributedSampler``. Each holds the release
path and the IDs it serves; the reader opens lazily in each process that reads (a forked worker
reuses the parent's reader, whose catalog reconnects after fork; a spawned worker unpickles the
path and opens its own).
"""

import operator
import os

import numpy as np
import torch
from torch.utils.data import Dataset

from . import _reader

# numpy dtypes torch has no tensor type for are widened losslessly.
_WIDEN = {np.dtype("uint16"): np.int32, np.dtype("uint32"): np.int64}


def _release_dir(release):
    if isinstance(release, _reader.TimeFReader):
        return release.path
    return os.fspath(release)


class _ReaderHolder:
    def __init__(self, release):
        self._path = _release_dir(release)
        self._reader = None
        self._pid = None

    def _open(self):
        # A reader is used by one thread at a time; a DataLoader worker is one process with its
        # own copy after fork, and a spawned worker has none yet.
        if self._reader is None or self._pid != os.getpid():
            self._reader = _reader.TimeFReader.open(self._path)
            self._pid = os.getpid()
        return self._reader

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_reader"] = None
        state["_pid"] = None
        return state


class SignalDataset(_ReaderHolder, Dataset):
    """Every signal with numeric values (optionally of one spec_type), in stored record order.

    Items: ``{"signal_id": int, "record_id": int, "values": torch.Tensor}``; the tensor has the
    signal's shape ``[n_values, *value_shape]`` and dtype (bool, int8…int32, float32/64; enum as
    int32 codes; uint16/uint32 widened to int32/int64). A nullable signal adds ``"valid"``, a bool
    tensor per step (null steps hold 0 in ``values``).
    """

    def __init__(self, release, *, spec_type=None):
        super().__init__(release)
        reader = self._open()
        items = []
        for record in reader.iter_records():
            for signal in record.signals:
                if signal.spec.dtype == "str" or not signal.has_values:
                    continue
                if spec_type is not None and signal.spec.spec_type != spec_type:
                    continue
                items.append((signal.id, record.id))
        self._items = items

    def __len__(self):
        return len(self._items)

    def __getitem__(self, index):
        signal_id, record_id = self._items[index]
        values = self._open().signal_values(signal_id).to_numpy(writable=True)
        item = {"signal_id": signal_id, "record_id": record_id}
        if isinstance(values, np.ma.MaskedArray):
            valid = ~np.ma.getmaskarray(values)
            if valid.ndim > 1:
                valid = valid.reshape(valid.shape[0], -1).all(axis=1)
            item["valid"] = torch.from_numpy(np.ascontiguousarray(valid))
            values = values.filled(0)
        widen = _WIDEN.get(values.dtype)
        if widen is not None:
            values = values.astype(widen)
        item["values"] = torch.from_numpy(values)
        return item


class TaskDataset(_ReaderHolder, Dataset):
    """Every task (optionally of one split), by task ID.

    Items: ``{"task_id", "task_type", "prompt", "inputs", "targets"}`` with the prompt as a str
    (None when absent), inputs as record IDs, and targets as native values (text read; records
    and signals as their IDs; spans as ``(kind, start, end, signal_ids)`` tuples).

    Tasks are read ``batch_size`` IDs at a time (one ``get_many``, so one graph, per batch) the
    first time an item of the batch is asked for, and kept as plain items: a later ``__getitem__``
    of any task of the batch reads nothing. ``preload()`` reads every batch now (call it before
    a forking DataLoader starts its workers, so they share the items instead of each reading the
    batches it touches).
    """

    def __init__(self, release, *, split=None, batch_size=_reader._timef.TASK_BATCH_SIZE):
        super().__init__(release)
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise _reader._timef.ValidationError(
                f"TaskDataset: batch_size is an int of at least 1, got {batch_size!r}")
        table = self._open().read_task_table(split=split).to_pydict()
        self._ids = list(table["task_id"])
        self._batch_size = batch_size
        self._items = {}  # batch index -> items of that batch

    def __len__(self):
        return len(self._ids)

    def _batch(self, b):
        items = self._items.get(b)
        if items is None:
            ids = self._ids[b * self._batch_size:(b + 1) * self._batch_size]
            items = [self._item(task) for task in self._open().get_many(_reader._timef.Task, ids)]
            self._items[b] = items
        return items

    def preload(self):
        """Reads every batch not read yet; returns self."""
        for b in range((len(self._ids) + self._batch_size - 1) // self._batch_size):
            self._batch(b)
        return self

    @staticmethod
    def _item(task):
        return {
            "task_id": task.id,
            "task_type": task.task_type,
            "prompt": _reader.read_value(task.prompt),
            "inputs": [r.id for r in task.inputs],
            "targets": None if task.targets is None else [_target(t) for t in task.targets],
        }

    def __getitem__(self, index):
        index = operator.index(index)
        if index < 0:
            index += len(self._ids)
        if not 0 <= index < len(self._ids):
            raise IndexError(f"TaskDataset: index {index} out of range for {len(self._ids)} tasks")
        item = self._batch(index // self._batch_size)[index % self._batch_size]
        return dict(item, inputs=list(item["inputs"]),
                    targets=None if item["targets"] is None else list(item["targets"]))


def _target(value):
    value = _reader.read_value(value)
    if isinstance(value, (_reader._timef.Record, _reader._timef.Signal)):
        return value.id
    if isinstance(value, _reader._timef.ScopedSpan):
        return (value.kind, value.start, value.end, [s.id for s in value.signals])
    return value
