"""PyTorch datasets over a TimeF release.

Both are map-style ``torch.utils.data.Dataset``s, so they work with ``DataLoader`` (any
``num_workers``, fork or spawn start method) and ``DistributedSampler``. Each holds the release
path and the IDs it serves; the reader opens lazily in each process that reads (a forked worker
reuses the parent's reader, whose catalog reconnects after fork; a spawned worker unpickles the
path and opens its own).
"""

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
    """

    def __init__(self, release, *, split=None):
        super().__init__(release)
        table = self._open().read_task_table(split=split).to_pydict()
        self._ids = list(table["task_id"])

    def __len__(self):
        return len(self._ids)

    def __getitem__(self, index):
        task = self._open().get(_reader._timef.Task, self._ids[index])
        return {
            "task_id": task.id,
            "task_type": task.task_type,
            "prompt": _reader.read_value(task.prompt),
            "inputs": [r.id for r in task.inputs],
            "targets": None if task.targets is None else [_target(t) for t in task.targets],
        }


def _target(value):
    value = _reader.read_value(value)
    if isinstance(value, (_reader._timef.Record, _reader._timef.Signal)):
        return value.id
    if isinstance(value, _reader._timef.ScopedSpan):
        return (value.kind, value.start, value.end, [s.id for s in value.signals])
    return value
