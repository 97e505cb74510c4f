"""PyTorch datasets over a TimeF release.

Both are map-style ``torch.utils.data.Dataset``s, so they work with ``DataLoader`` (any
``num_workers``, fork or spawn start method) and ``DistributedSampler``. Each holds the release
path and the IDs it serves; the reader opens lazily in each process that reads (a forked worker
reuses the parent's reader, whose catalog reconnects after fork; a spawned worker unpickles the
path and opens its own).
"""

import hashlib
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


# Decode threads a dataset's reader gets by default outside DataLoader workers (decode_threads=None).
# A batch read by the main process (num_workers=0) holds up the training loop, whose own threads
# wait meanwhile; two lanes cut load_values of 32 ECG leads from 21 to 13 µs a lead on 2 cores
# (docs/benchmarks.md, "Training input from Python"). More than 2 was not measured.
_MAIN_PROCESS_DECODE_THREADS = 2


def _usable_cpus():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _ReaderHolder:
    def __init__(self, release, decode_threads):
        if decode_threads is not None and (isinstance(decode_threads, bool)
                                           or not isinstance(decode_threads, int)):
            raise _reader._timef.ValidationError(
                f"{type(self).__name__}: decode_threads is None or an int, got {decode_threads!r}")
        self._path = _release_dir(release)
        self._decode_threads = decode_threads
        self._reader = None
        self._pid = None

    def _reader_decode_threads(self):
        if self._decode_threads is not None:
            return self._decode_threads
        # Workers already decode side by side, one process each: one lane per worker.
        if torch.utils.data.get_worker_info() is not None:
            return 1
        return max(1, min(_MAIN_PROCESS_DECODE_THREADS, _usable_cpus()))

    def _open(self):
        # A reader is used by one thread at a time; a DataLoader worker is one process with its
        # own copy after fork, and a spawned worker has none yet.
        if self._reader is None or self._pid != os.getpid():
            self._reader = _reader.TimeFReader.open(
                self._path, decode_threads=self._reader_decode_threads())
            self._pid = os.getpid()
        return self._reader

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_reader"] = None
        state["_pid"] = None
        return state


class SignalDataset(_ReaderHolder, Dataset):
    """Every signal with numeric values, in the order their values are stored
    (``reader.signal_ids(order="values")``): optionally
    of one ``spec_type``, of the records in ``record_ids``, and of the records that the tasks of
    ``split`` use as inputs (both: the records in both).

    Items: ``{"signal_id": int, "record_id": int, "values": torch.Tensor}``; the tensor has the
    signal's shape ``[n_values, *value_shape]`` and dtype (bool, int8…int32, float32/64; enum as
    int32 codes; uint16/uint32 widened to int32/int64). A nullable signal adds ``"valid"``, a bool
    tensor per step (null steps hold 0 in ``values``).

    ``decode_threads``: the threads that decode one batch's values (TimeFReader.open's option).
    None (the default) gives the reader of a DataLoader worker 1 and the reader of any other
    process (``num_workers=0``) 2, or 1 on a single usable CPU.
    """

    def __init__(self, release, *, spec_type=None, split=None, record_ids=None,
                 decode_threads=None):
        super().__init__(release, decode_threads)
        reader = self._open()
        wanted = None
        if record_ids is not None:
            wanted = _reader._check_ids(record_ids, "record_ids")
        if split is not None:
            table = reader.read_task_table(split=split).to_pydict()
            used = {i for ids in table["input_record_ids"] for i in ids}
            wanted = sorted(used) if wanted is None else [i for i in wanted if i in used]
        items = []
        steps = {}
        kinds = {}
        if wanted is None or wanted:
            for record in reader.iter_records(record_ids=wanted):
                for signal in record.signals:
                    if signal.spec.dtype == "str" or not signal.has_values:
                        continue
                    if spec_type is not None and signal.spec.spec_type != spec_type:
                        continue
                    items.append((signal.id, record.id))
                    steps[signal.id] = signal.n_values
                    kinds[signal.id] = _direct_kind(signal.spec)
        # The order the values are stored in (signal_ids(order="values")), so consecutive items
        # share pages and a block sampler keeps that locality: a block is a run of rows read front
        # to back, one parked page per block of a window. (Records first would interleave a
        # record's signals, stored apart by name: a parked page per signal per block.)
        position = {sid: at for at, sid in enumerate(reader.signal_ids(order="values"))}
        items.sort(key=lambda item: position[item[0]])
        self._items = items
        self._steps = np.array([steps[sid] for sid, _ in items], dtype=np.int64)
        self._kinds = [kinds[sid] for sid, _ in items]

    def __len__(self):
        return len(self._items)

    def lengths(self):
        """Each item's number of steps (its values' first dimension), numpy int64, in item
        order: the ``lengths`` a bucketing Sampler takes."""
        return self._steps.copy()

    def __getitem__(self, index):
        signal_id, record_id = self._items[index]
        values = self._open().signal_values(signal_id).to_numpy(writable=True)
        return self._make(signal_id, record_id, values)

    def __getitems__(self, indices):
        """The items at ``indices`` (a DataLoader hands a whole batch of indices here), their
        values read in one call: one locator lookup for the batch, each page decoded once for
        the signals it holds, the reads issued together. When the batch's signals share one dtype
        and value shape and none is nullable, they are decoded straight into one zero-padded
        ``[batch, longest, *value_shape]`` tensor whose rows the items' ``values`` are (views:
        an item kept alive keeps that tensor), and ``collate_pad`` hands out that tensor as the
        batch's ``values`` instead of copying the rows into a new one."""
        at = [operator.index(i) for i in indices]
        picked = [self._items[i] for i in at]
        kinds = {self._kinds[i] for i in at}
        if len(kinds) == 1 and None not in kinds:
            # One dtype and value shape, no nulls: decoded straight into one zero-padded batch
            # tensor, which collate_pad then hands out without copying (_read_into_rows).
            (rows,) = _read_into_rows(
                self._open(), [([(sid, int(self._steps[i])) for (sid, _), i in zip(picked, at)],
                                kinds.pop())])
            return [{"signal_id": sid, "record_id": rid, "values": row}
                    for (sid, rid), row in zip(picked, rows)]
        arrays = (self._open().load_values([sid for sid, _ in picked], writable=True)
                  if picked else [])
        return [self._make(sid, rid, values) for (sid, rid), values in zip(picked, arrays)]

    @staticmethod
    def _make(signal_id, record_id, values):
        item = {"signal_id": signal_id, "record_id": record_id}
        tensor, valid = _to_tensor(values)
        if valid is not None:
            item["valid"] = valid
        item["values"] = tensor
        return item


def _to_tensor(values):
    """(values, valid): a numpy array (masked or not) as a tensor of its dtype (uint16/uint32
    widened, null steps 0) and, for a masked array, the bool tensor of valid steps (else None)."""
    valid = None
    if isinstance(values, np.ma.MaskedArray):
        mask = ~np.ma.getmaskarray(values)
        if mask.ndim > 1:
            mask = mask.reshape(mask.shape[0], -1).all(axis=1)
        valid = torch.from_numpy(np.ascontiguousarray(mask))
        values = values.filled(0)
    widen = _WIDEN.get(values.dtype)
    if widen is not None:
        values = values.astype(widen)
    elif not values.flags.writeable:
        values = values.copy()  # torch tensors are writable; a read-only buffer is not handed out
    return torch.from_numpy(values), valid


# Torch dtypes of the storage types that load_values_into writes as a tensor holds them (enum as
# its int32 codes). uint16/uint32 need widening and a nullable spec its mask: those go through
# load_values and _to_tensor.
_DIRECT_DTYPES = {"bool": torch.bool, "int8": torch.int8, "uint8": torch.uint8,
                  "int16": torch.int16, "int32": torch.int32, "float32": torch.float32,
                  "float64": torch.float64, "enum": torch.int32}


def _direct_kind(spec):
    """(torch dtype, value shape) when a signal of `spec` can be decoded straight into a tensor's
    row (_read_into_rows), else None."""
    dtype = _DIRECT_DTYPES.get(spec.dtype)
    if dtype is None or spec.nullable:
        return None
    return dtype, tuple(spec.value_shape)


# The attribute that marks a values tensor as row k of a batch buffer (_read_into_rows); collation
# takes the buffer itself instead of copying the rows into a new one, once (it drops the marks).
_ROW = "_timef_batch_row"


def _read_into_rows(reader, leaves):
    """Decodes whole batches of signals into zero-padded buffers, one per leaf, in one
    load_values_into call. `leaves`: per leaf (one place in the items' values, e.g. lead "II" of
    a task's first input), ((signal ID, steps) per item in batch order, (dtype, value shape)).
    Returns per leaf the items' values: row k is a view of the first `steps` of row k of a
    [batch, longest, *value shape] tensor, zero past each item's end, marked so that collate_pad
    and collate_crop (from step 0) hand out that tensor without copying the rows."""
    ids, views, out = [], [], []
    for rows, (dtype, shape) in leaves:
        longest = max((steps for _, steps in rows), default=0)
        buffer = torch.zeros((len(rows), longest, *shape), dtype=dtype)
        array = buffer.numpy()
        leaf = []
        for k, (signal_id, steps) in enumerate(rows):
            # numpy slicing and from_numpy: half the cost of a torch slice and .numpy() per row.
            view = array[k, :steps]
            row = torch.from_numpy(view)
            setattr(row, _ROW, (buffer, k))
            ids.append(signal_id)
            views.append(view)
            leaf.append(row)
        out.append(leaf)
    if ids:
        reader.load_values_into(ids, views)
    return out


class TaskDataset(_ReaderHolder, Dataset):
    """Every task (optionally of one split and of one task_type), by task ID.

    Items: ``{"task_id", "task_type", "prompt", "inputs", "targets"}`` with the prompt as a str
    (None when absent), inputs as record IDs, and targets as native values (text read; records
    and signals as their IDs; spans as ``(kind, start, end, signal_ids)`` tuples), except that a
    scalar_prediction task's targets are a float64 tensor (an integer target that float64 cannot
    hold exactly is a ValidationError naming the task).

    A classification task adds ``"label"``: the index of its target in ``classes`` (a tuple of
    the inline classification targets of the whole release, every split, distinct and sorted,
    so the same in every process), a tuple of indices for a task of several targets, None for
    one without inline targets. ``load_values=True`` adds ``"values"``: a list with one dict per
    input record, signal name -> tensor (every numeric signal with values, as in
    SignalDataset), all read in one ``load_values`` call; a nullable signal's valid steps are in
    ``"valid"``, the same list of dicts holding only the nullable signals. ``transform(item)``,
    when given, returns the item handed out.

    The items come from the reader's task table (read when the dataset is made) and target
    table (read once, the first time an item is asked for), not from hydrated tasks: the first
    epoch runs one query, whatever the number of tasks. With ``load_values``, the input records'
    signals are read ``batch_size`` tasks at a time (one ``get_many`` of records per batch) the
    first time an item of the batch is asked for. Items are kept as plain items, so a later
    ``__getitem__`` reads no task. ``preload()`` reads everything now (call it before a forking
    DataLoader starts its workers, so they share the items instead of each reading them).
    ``decode_threads`` as in SignalDataset.
    """

    def __init__(self, release, *, split=None, task_type=None, load_values=False, transform=None,
                 batch_size=_reader._timef.TASK_BATCH_SIZE, decode_threads=None):
        super().__init__(release, decode_threads)
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise _reader._timef.ValidationError(
                f"TaskDataset: batch_size is an int of at least 1, got {batch_size!r}")
        if transform is not None and not callable(transform):
            raise _reader._timef.ValidationError("TaskDataset: transform is a callable")
        reader = self._open()
        table = reader.read_task_table(split=split, task_type=task_type).to_pydict()
        self._ids = list(table["task_id"])
        # Per task, in the order of _ids: (type, prompt, input record IDs, has inline targets).
        self._rows = list(zip(table["type"], table["prompt"], table["input_record_ids"],
                              table["has_inline_targets"]))
        self._filter = {"split": split, "task_type": task_type}
        self._targets = None  # task ID -> inline targets, from the target table on first use
        self._batch_size = batch_size
        self._load_values = bool(load_values)
        self._transform = transform
        self.classes = _classes(reader)
        self._class_index = {_class_key(c): i for i, c in enumerate(self.classes)}
        self._items = {}  # batch index -> (item, signals per input record) of that batch

    def __len__(self):
        return len(self._ids)

    def _batch(self, b):
        items = self._items.get(b)
        if items is None:
            reader = self._open()
            if self._targets is None:
                self._targets = _inline_targets(reader.read_target_table(**self._filter))
            at = slice(b * self._batch_size, (b + 1) * self._batch_size)
            items = [self._item(task_id, *row)
                     for task_id, row in zip(self._ids[at], self._rows[at])]
            if self._load_values:
                wanted = sorted({r for _, _, inputs, _ in self._rows[at] for r in inputs})
                records = {r.id: r for r in reader.get_many(_reader._timef.Record, wanted)}
                items = [(item, [_signals(records[r], item["task_id"]) for r in item["inputs"]])
                         for item in items]
            else:
                items = [(item, None) for item in items]
            self._items[b] = items
        return items

    def preload(self):
        """Reads every batch not read yet; returns self."""
        for b in range((len(self._ids) + self._batch_size - 1) // self._batch_size):
            self._batch(b)
        return self

    def _item(self, task_id, task_type, prompt, inputs, has_inline_targets):
        targets = self._targets.get(task_id, []) if has_inline_targets else None
        item = {
            "task_id": task_id,
            "task_type": task_type,
            "prompt": prompt,
            "inputs": list(inputs),
            "targets": None if targets is None else list(targets),
        }
        if task_type == "scalar_prediction" and targets is not None:
            item["targets"] = _float_targets(task_id, targets)
        if task_type == "classification":
            if not targets:
                item["label"] = None
            else:
                labels = tuple(self._class_index[_class_key(t)] for t in targets)
                item["label"] = labels[0] if len(labels) == 1 else labels
        return item

    def _cached(self, index):
        index = operator.index(index)
        if index < 0:
            index += len(self._ids)
        if not 0 <= index < len(self._ids):
            raise IndexError(f"TaskDataset: index {index} out of range for {len(self._ids)} tasks")
        cached, signals = self._batch(index // self._batch_size)[index % self._batch_size]
        item = dict(cached, inputs=list(cached["inputs"]))
        if isinstance(item["targets"], list):
            item["targets"] = list(item["targets"])
        elif isinstance(item["targets"], torch.Tensor):
            item["targets"] = item["targets"].clone()
        return item, signals

    def _finish(self, item, signals, tensors):
        # `tensors`: an iterator over (values, valid steps or None) of `signals`' IDs, in order.
        if signals is not None:
            values, valid = [], []
            for record in signals:
                record_values, record_valid = {}, {}
                for name, *_ in record:
                    tensor, steps = next(tensors)
                    record_values[name] = tensor
                    if steps is not None:
                        record_valid[name] = steps
                values.append(record_values)
                valid.append(record_valid)
            item["values"] = values
            if any(valid):
                item["valid"] = valid
        if self._transform is not None:
            item = self._transform(item)
        return item

    def _values(self, signal_lists):
        ids = [sid for signals in signal_lists if signals is not None
               for record in signals for _, sid, *_ in record]
        return map(_to_tensor, self._open().load_values(ids, writable=True) if ids else [])

    def __getitem__(self, index):
        item, signals = self._cached(index)
        return self._finish(item, signals, self._values([signals]))

    def __getitems__(self, indices):
        """The items at ``indices`` (a DataLoader hands a whole batch of indices here): with
        ``load_values``, the values of every item's input records read in one call for the
        batch. When every item has the same inputs layout (input count, signal names, each
        name of one dtype and value shape, no nullable signal), each leaf (input j's signal
        "name") is decoded straight into one zero-padded tensor, as in
        SignalDataset.__getitems__, and ``collate_pad`` hands it out without copying."""
        cached = [self._cached(i) for i in indices]
        fused = self._items_in_batch_tensors(cached)
        if fused is not None:
            return fused
        tensors = self._values([signals for _, signals in cached])
        return [self._finish(item, signals, tensors) for item, signals in cached]

    def _items_in_batch_tensors(self, cached):
        """The items of a batch whose values have one structure (the same input count and
        signal names, each name of one dtype and value shape, no nulls), decoded straight into
        one zero-padded tensor per leaf (_read_into_rows), which collate_pad hands out without
        copying; None for any other batch."""
        if not cached or cached[0][1] is None:
            return None

        def layout_of(signals):  # per input record, (name, kind) of each signal
            return [[(name, kind) for name, _, _, kind in record] for record in signals]

        layout = layout_of(cached[0][1])
        if any(kind is None for record in layout for _, kind in record):
            return None
        if any(layout_of(signals) != layout for _, signals in cached[1:]):
            return None
        leaves = [([(signals[j][n][1], signals[j][n][2]) for _, signals in cached], kind)
                  for j, record in enumerate(layout) for n, (_, kind) in enumerate(record)]
        per_leaf = _read_into_rows(self._open(), leaves)  # in the order of `leaves`
        # Item by item, in the order _finish takes them: input by input, signal by signal.
        tensors = ((rows[k], None) for k in range(len(cached)) for rows in per_leaf)
        return [self._finish(item, signals, tensors) for item, signals in cached]


def _class_key(value):
    # True == 1 in a dict: the key keeps the kinds apart.
    return (type(value).__name__, value)


def _classes(reader):
    table = reader.read_target_table(task_type="classification").to_pydict()
    found = set()
    for at, kind in enumerate(table["kind"]):
        column = None if kind in ("record", "signal") else _TARGET_COLUMNS.get(kind)
        if column is None:
            raise _reader._timef.ValidationError(
                f"TaskDataset: classification task {table['task_id'][at]} has a {kind} target; "
                "classes are text, integer, float or boolean values")
        found.add(_class_key(table[column][at]))
    return tuple(value for _, value in sorted(found))


def _float_targets(task_id, targets):
    out = []
    for value in targets:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _reader._timef.ValidationError(
                f"TaskDataset: scalar_prediction task {task_id} has a target {value!r} that is "
                "not a number")
        if isinstance(value, int) and int(float(value)) != value:
            raise _reader._timef.ValidationError(
                f"TaskDataset: scalar_prediction task {task_id}: target {value} is not exactly "
                "a float64")
        out.append(float(value))
    return torch.tensor(out, dtype=torch.float64)


_SPANS = ("time_point", "time_interval", "step_point", "step_interval")
_TARGET_COLUMNS = {"text": "text_value", "integer": "integer_value", "float": "float_value",
                   "boolean": "boolean_value", "record": "record_id", "signal": "signal_id"}


def _inline_targets(table):
    """Task ID -> its inline targets from a target table, in position order, as native values:
    text, int, float and bool as such, records and signals as their IDs, spans as
    ``(kind, start, end, signal_ids)`` tuples (no signal IDs: an empty list)."""
    columns = table.to_pydict()
    out = {}
    for at, (task_id, kind) in enumerate(zip(columns["task_id"], columns["kind"])):
        if kind in _SPANS:
            value = (kind, columns["span_start"][at], columns["span_end"][at],
                     list(columns["span_signal_ids"][at] or []))
        elif kind in _TARGET_COLUMNS:
            value = columns[_TARGET_COLUMNS[kind]][at]
        else:
            raise _reader._timef.ValidationError(
                f"TaskDataset: task {task_id} has a target of unknown kind {kind!r}")
        out.setdefault(task_id, []).append(value)
    return out


def _signals(record, task_id):
    """(name, signal ID, steps, _direct_kind) of each numeric signal with values of `record` (an
    input of task `task_id`), in the record's order."""
    signals = []
    names = set()
    for signal in record.signals:
        if signal.spec.dtype == "str" or not signal.has_values:
            continue
        if signal.name in names:
            raise _reader._timef.ValidationError(
                f"TaskDataset: record {record.id} (input of task {task_id}) has two "
                f"signals named '{signal.name}'; values are keyed by signal name")
        names.add(signal.name)
        signals.append((signal.name, signal.id, signal.n_values, _direct_kind(signal.spec)))
    return signals


# --- Collation -----------------------------------------------------------------------------------

def collate_pad(items):
    """Batches dataset items (dicts with the same keys) key by key, padding ``values``.

    ``values`` (a tensor per item, or the same structure of lists and dicts of tensors per item,
    as TaskDataset gives) becomes, leaf by leaf, one tensor ``[batch, longest, *value_shape]``
    of the leaf's dtype (any numeric dtype or bool; steps past an item's end hold 0 / False);
    the batch adds ``lengths`` (int64 ``[batch]``) and ``mask`` (bool ``[batch, longest]``, True
    on real steps) in the same structure. ``valid`` (nullable signals) is padded like the
    ``values`` leaf of the same place. Other keys: ints (IDs, labels) become an int64 tensor,
    bools a bool tensor, floats a float64 tensor, tensors of one shape are stacked, dicts are
    batched key by key; anything else (strings, None, lists, tensors of different shapes)
    stays a list. ValidationError naming the key for items whose keys, leaf dtypes, value
    shapes or structures differ.

    Items from a dataset's ``__getitems__`` (what a DataLoader with a ``batch_size`` collates)
    may already hold a leaf's values as the rows, in order, of one zero-padded tensor of the
    batch's shape; that tensor is then the batch's leaf as it is, with no copy (so the batch
    shares memory with those items' ``values``). Only once: collating the same items again, or
    them reordered or in part, copies."""
    return _collate(items, _pad_window)


def collate_crop(n, *, random=False, generator=None):
    """A collate function like ``collate_pad`` that cuts every ``values`` leaf to a window of
    ``n`` steps: from step 0, or with ``random=True`` from a start drawn uniformly over the
    item's possible starts (``torch.randint``, with ``generator`` when given, else the global
    torch RNG, which a DataLoader seeds per worker: give no generator to workers, or each draws
    the same windows). An item shorter than ``n`` is padded as by collate_pad, and ``lengths`` /
    ``mask`` say so. ``valid`` is cut with the window of its ``values`` leaf. Picklable (a
    generator travels as its state)."""
    return _Crop(n, random, generator)


class _Crop:
    def __init__(self, n, random, generator):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise _reader._timef.ValidationError(
                f"collate_crop: n is an int of at least 1, got {n!r}")
        if not isinstance(random, bool):
            raise _reader._timef.ValidationError("collate_crop: random is a bool")
        if generator is not None and not isinstance(generator, torch.Generator):
            raise _reader._timef.ValidationError("collate_crop: generator is a torch.Generator")
        self.n = n
        self.random = random
        self.generator = generator

    def _window(self, lengths):
        if not self.random:
            return self.n, [0] * len(lengths)
        starts = []
        for length in lengths:
            span = max(length - self.n, 0) + 1
            starts.append(int(torch.randint(span, (1,), generator=self.generator)))
        return self.n, starts

    def __getstate__(self):
        state = dict(self.__dict__)
        if self.generator is not None:
            state["generator"] = self.generator.get_state()
        return state

    def __setstate__(self, state):
        generator = state.pop("generator")
        self.__dict__.update(state)
        self.generator = None
        if generator is not None:
            self.generator = torch.Generator()
            self.generator.set_state(generator)

    def __call__(self, items):
        return _collate(items, self._window)


def _pad_window(lengths):
    return (max(lengths) if lengths else 0), [0] * len(lengths)


def _collate(items, window):
    items = list(items)
    if not items:
        raise _reader._timef.ValidationError("collate: an empty batch")
    if not all(isinstance(item, dict) for item in items):
        raise _reader._timef.ValidationError("collate: items are dicts")
    keys = list(items[0])
    for item in items[1:]:
        if set(item) != set(keys):
            raise _reader._timef.ValidationError(
                f"collate: items with different keys: {sorted(keys)} and {sorted(item)}")
    batch = {}
    windows = {}
    if "values" in items[0]:
        for name in ("lengths", "mask"):
            if name in items[0]:
                raise _reader._timef.ValidationError(
                    f"collate: items hold '{name}', which the batch adds for 'values'")
        values, lengths, mask = _pad_tree([item["values"] for item in items], "values", (),
                                          window, windows, None)
        batch["values"], batch["lengths"], batch["mask"] = values, lengths, mask
    for key in keys:
        if key == "values":
            continue
        column = [item[key] for item in items]
        if key == "valid" and "values" in items[0]:
            batch[key] = _pad_tree(column, key, (), window, windows, "values")[0]
        else:
            batch[key] = _stack(column)
    return batch


def _pad_tree(column, key, place, window, windows, like):
    """Pads the leaves of one key's values: returns (padded, lengths, mask) in the structure of
    the items. `place` is the path of list indices and dict keys below `key`; `windows` maps a
    leaf's place to its (length, starts), and with `like` (a key) the leaves reuse the windows of
    that key's leaves at the same place instead of choosing new ones."""
    where = key + "".join(f"[{p!r}]" for p in place)
    first = column[0]
    if isinstance(first, torch.Tensor):
        return _pad_leaf(column, where, place, window, windows, like)
    if isinstance(first, (list, tuple)):
        if not all(isinstance(c, (list, tuple)) and len(c) == len(first) for c in column):
            raise _reader._timef.ValidationError(
                f"collate: '{where}' holds lists of different lengths in one batch")
        parts = [_pad_tree([c[i] for c in column], key, place + (i,), window, windows, like)
                 for i in range(len(first))]
        return tuple([p[i] for p in parts] for i in range(3))
    if isinstance(first, dict):
        if not all(isinstance(c, dict) and set(c) == set(first) for c in column):
            raise _reader._timef.ValidationError(
                f"collate: '{where}' holds dicts of different keys in one batch")
        parts = {k: _pad_tree([c[k] for c in column], key, place + (k,), window, windows, like)
                 for k in first}
        return tuple({k: p[i] for k, p in parts.items()} for i in range(3))
    raise _reader._timef.ValidationError(
        f"collate: '{where}' is a {type(first).__name__}, not a tensor (or lists and dicts of "
        "tensors)")


def _pad_leaf(column, where, place, window, windows, like):
    for t in column:
        if not isinstance(t, torch.Tensor) or t.dim() < 1:
            raise _reader._timef.ValidationError(
                f"collate: '{where}' holds a {type(t).__name__} among tensors, or a 0-d tensor; "
                "padded values are tensors of at least one dimension")
        if t.dtype != column[0].dtype:
            raise _reader._timef.ValidationError(
                f"collate: '{where}' mixes dtypes {column[0].dtype} and {t.dtype} in one batch")
        if t.shape[1:] != column[0].shape[1:]:
            raise _reader._timef.ValidationError(
                f"collate: '{where}' mixes value shapes {list(column[0].shape[1:])} and "
                f"{list(t.shape[1:])} in one batch")
    lengths = [t.shape[0] for t in column]
    if like is None:
        size, starts = window(lengths)
        windows[place] = (size, starts)
    elif place in windows:
        size, starts = windows[place]
    else:
        raise _reader._timef.ValidationError(
            f"collate: '{where}' has no '{like}' counterpart to be padded like")
    takes = [max(min(n - start, size), 0) for n, start in zip(lengths, starts)]
    out = _batch_buffer(column, size, starts)
    if out is None:
        out = torch.zeros((len(column), size, *column[0].shape[1:]), dtype=column[0].dtype)
        for i, (t, start, take) in enumerate(zip(column, starts, takes)):
            out[i, :take] = t[start:start + take]
    taken = torch.tensor(takes, dtype=torch.int64)
    mask = torch.arange(size) < taken[:, None]
    return out, taken, mask


def _batch_buffer(column, size, starts):
    """The zero-padded buffer the tensors of `column` are the rows of, in order, when
    _read_into_rows made them so and the window is the buffer's whole width from step 0; None
    otherwise (then the rows are copied). Each tensor is checked to still view the start of its
    row, and the marks are dropped: a buffer is handed out once."""
    mark = getattr(column[0], _ROW, None)
    if mark is None:
        return None
    buffer = mark[0]
    if buffer.shape[0] != len(column) or buffer.shape[1] != size or any(starts):
        return None
    start, row_bytes = buffer.data_ptr(), buffer.stride(0) * buffer.element_size()
    for k, t in enumerate(column):
        row = getattr(t, _ROW, None)
        if (row is None or row[0] is not buffer or row[1] != k or t.shape[0] > size
                or t.data_ptr() != start + k * row_bytes):
            return None
    for t in column:
        delattr(t, _ROW)
    return buffer


def _stack(column):
    first = column[0]
    if all(isinstance(c, bool) for c in column):
        return torch.tensor(column, dtype=torch.bool)
    if all(isinstance(c, int) and not isinstance(c, bool) for c in column):
        return torch.tensor(column, dtype=torch.int64)
    if all(isinstance(c, float) for c in column):
        return torch.tensor(column, dtype=torch.float64)
    if all(isinstance(c, torch.Tensor) for c in column) and all(
            c.shape == first.shape and c.dtype == first.dtype for c in column):
        return torch.stack(column)
    if isinstance(first, dict) and all(isinstance(c, dict) and set(c) == set(first)
                                       for c in column):
        return {k: _stack([c[k] for c in column]) for k in first}
    return list(column)


# --- Sampler -------------------------------------------------------------------------------------

class Sampler(torch.utils.data.Sampler):
    """An elastic, deterministic, resumable sampler of dataset indices for one rank.

    The global order of an epoch depends only on (seed, epoch, len(dataset), block_size, window):
    without ``shuffle`` it is 0, 1, …, N − 1; with it, the indices are cut into blocks of
    ``block_size`` consecutive indices (the datasets serve storage order, so a block shares
    pages), the blocks are put in a random order, and the items of each run of ``window``
    consecutive blocks of that order are shuffled among themselves. Rank r of W
    (``num_replicas``, by default the torch.distributed world size, else 1; ``rank`` likewise)
    takes the global positions r, r + W, r + 2W, …; every rank gets the same count by
    repeating at most W − 1 indices from the start of the global order, or, with
    ``drop_last=True``, by dropping the last (at most W − 1) positions.

    ``lengths`` (one non-negative int per item, e.g. ``SignalDataset.lengths()``) buckets by
    length: each run of ``bucket`` consecutive positions of that order (1,024 by default) is
    sorted by length, stably, so a rank's batches hold items of similar lengths (less padding)
    while the runs keep the shuffled order; the order then also depends on the lengths and
    ``bucket``, still not on ranks or workers.

    ``set_epoch(e)`` before each epoch (as with DistributedSampler). ``state_dict(consumed=k)``
    after this rank consumed k samples of the epoch (default: as many as the iterator handed out;
    a DataLoader with workers fetches ahead, so pass what the loop used) records the global
    position reached, k·W past where the epoch (or the resumed part of it) began; a fresh sampler
    given ``load_state_dict`` of it (any number of ranks, any DataLoader workers) yields exactly
    the rest of the epoch: with the same W each rank its own rest, with another W the global
    positions left, dealt out by the same rule. The next ``set_epoch`` with another epoch starts
    that epoch from its first position.
    """

    def __init__(self, dataset, *, seed=0, shuffle=True, num_replicas=None, rank=None,
                 block_size=64, window=8, drop_last=False, lengths=None, bucket=None):
        ValidationError = _reader._timef.ValidationError
        if num_replicas is None or rank is None:
            dist = torch.distributed
            ready = dist.is_available() and dist.is_initialized()
            if num_replicas is None:
                num_replicas = dist.get_world_size() if ready else 1
            if rank is None:
                rank = dist.get_rank() if ready else 0
        for name, value, low in (("seed", seed, 0), ("num_replicas", num_replicas, 1),
                                 ("rank", rank, 0), ("block_size", block_size, 1),
                                 ("window", window, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValidationError(f"Sampler: {name} is an int of at least {low}, "
                                      f"got {value!r}")
        if rank >= num_replicas:
            raise ValidationError(f"Sampler: rank {rank} is not below num_replicas "
                                  f"{num_replicas}")
        self._lengths, self.bucket, self.lengths_sha256 = None, None, None
        if lengths is None:
            if bucket is not None:
                raise ValidationError("Sampler: bucket is given without lengths")
        else:
            bucket = 1024 if bucket is None else bucket
            if isinstance(bucket, bool) or not isinstance(bucket, int) or bucket < 1:
                raise ValidationError(f"Sampler: bucket is an int of at least 1, got {bucket!r}")
            values = np.asarray(lengths)
            if values.size == 0 and values.ndim == 1:
                values = values.astype(np.int64)
            if values.ndim != 1 or len(values) != len(dataset) or values.dtype.kind not in "iu":
                raise ValidationError(
                    f"Sampler: lengths is a sequence of {len(dataset)} ints (one per item), "
                    f"got {values.dtype} of shape {list(values.shape)}")
            if len(values) and int(values.min()) < 0:
                raise ValidationError(f"Sampler: lengths are at least 0, got {values.min()}")
            self._lengths = values.astype(np.int64)
            self.bucket = bucket
            self.lengths_sha256 = hashlib.sha256(self._lengths.tobytes()).hexdigest()
        self.length = len(dataset)
        self.seed = seed
        self.shuffle = bool(shuffle)
        self.num_replicas = num_replicas
        self.rank = rank
        self.block_size = block_size
        self.window = window
        self.drop_last = bool(drop_last)
        self.epoch = 0
        self._start = 0          # global position the next iteration begins at
        self._iter_start = None  # where the current (or last) iteration began
        self._yielded = 0

    def global_order(self, epoch=None):
        """The epoch's global order of indices (numpy int64), the same on every rank."""
        epoch = self.epoch if epoch is None else epoch
        order = self._shuffled(epoch)
        if self._lengths is not None and self.length:
            # Each run of `bucket` positions by length; equal lengths keep their order.
            runs = np.arange(self.length) // self.bucket
            order = order[np.lexsort((np.arange(self.length), self._lengths[order], runs))]
        return order

    def _shuffled(self, epoch):
        n = self.length
        if not self.shuffle or n == 0:
            return np.arange(n, dtype=np.int64)
        rng = np.random.Generator(np.random.PCG64([self.seed, epoch]))
        b = self.block_size
        n_blocks = (n + b - 1) // b
        blocks = rng.permutation(n_blocks)
        sizes = np.minimum(b, n - blocks * b)
        order = np.concatenate([np.arange(s * b, s * b + k, dtype=np.int64)
                                for s, k in zip(blocks.tolist(), sizes.tolist())])
        # Within each window of positions, a random interleaving of the blocks there: their
        # labels shuffled in place, then the k-th place of a block takes its k-th item.
        labels = np.repeat(np.arange(n_blocks), sizes)
        span = b * self.window
        labels = labels[np.lexsort((rng.random(n), np.arange(n) // span))]
        out = np.empty(n, dtype=np.int64)
        out[np.argsort(labels, kind="stable")] = order
        return out

    def _count(self, start):
        rest = max(self.length - start, 0)
        w = self.num_replicas
        return rest // w if self.drop_last else (rest + w - 1) // w

    def __len__(self):
        return self._count(self._start)

    def set_epoch(self, epoch):
        if isinstance(epoch, bool) or not isinstance(epoch, int) or epoch < 0:
            raise _reader._timef.ValidationError(
                f"Sampler.set_epoch: epoch is an int of at least 0, got {epoch!r}")
        if epoch != self.epoch:
            self.epoch = epoch
            self._start = 0
            self._iter_start = None
            self._yielded = 0

    def _sequence(self, start):
        order = self.global_order()
        w = self.num_replicas
        rest = order[min(start, self.length):]
        if self.drop_last:
            rest = rest[:len(rest) // w * w]
        elif len(rest) % w and self.length:
            rest = np.concatenate([rest, np.resize(order, (-len(rest)) % w)])
        return rest[self.rank::w]

    def __iter__(self):
        start = self._start
        mine = self._sequence(start)
        self._iter_start = start
        self._yielded = 0
        self._start = 0  # a later iteration of the same epoch is a whole epoch
        return self._hand_out(mine.tolist())

    def _hand_out(self, indices):
        for index in indices:
            self._yielded += 1
            yield index

    def state_dict(self, consumed=None):
        base = self._start if self._iter_start is None else self._iter_start
        if consumed is None:
            consumed = 0 if self._iter_start is None else self._yielded
        if isinstance(consumed, bool) or not isinstance(consumed, int) or not (
                0 <= consumed <= self._count(base)):
            raise _reader._timef.ValidationError(
                f"Sampler.state_dict: consumed is an int from 0 to {self._count(base)} (this "
                f"rank's samples of the epoch), got {consumed!r}")
        return {"epoch": self.epoch, "offset": base + consumed * self.num_replicas,
                "seed": self.seed, "length": self.length, "shuffle": self.shuffle,
                "block_size": self.block_size, "window": self.window,
                "drop_last": self.drop_last, "bucket": self.bucket,
                "lengths_sha256": self.lengths_sha256}

    def load_state_dict(self, state):
        for name in ("seed", "length", "shuffle", "block_size", "window", "drop_last", "bucket",
                     "lengths_sha256"):
            if state.get(name) != getattr(self, name):
                raise _reader._timef.ValidationError(
                    f"Sampler.load_state_dict: the state has {name}={state.get(name)!r}, this "
                    f"sampler {getattr(self, name)!r}; the epoch's order would differ")
        self.epoch = int(state["epoch"])
        self._start = int(state["offset"])
        self._iter_start = None
        self._yielded = 0
