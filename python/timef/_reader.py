"""TimeFReader: reading a committed TimeF release from Python.

A reader is used by one thread at a time (open one per thread). Objects it returns are yours and
outlive it; lazy values (signal arrays, irregular offsets, packed text) read through the reader's
files, which reopen on demand after close(). Catalog connections reopen after fork(), so a reader
(or a torch Dataset holding one) keeps working in DataLoader workers.
"""

import operator

from . import _timef

_INT64_MAX = (1 << 63) - 1


def _check_id(value, what="id"):
    if isinstance(value, (str, bytes)) or isinstance(value, bool):
        raise _timef.ValidationError(f"{what}: IDs are ints, not {type(value).__name__}")
    try:
        i = operator.index(value)
    except TypeError:
        raise _timef.ValidationError(
            f"{what}: IDs are ints, not {type(value).__name__}") from None
    if i <= 0 or i > _INT64_MAX:
        raise _timef.ValidationError(f"{what}: {i} is not a positive int64")
    return i


def _check_ids(values, what="ids"):
    if isinstance(values, (str, bytes)):
        raise _timef.ValidationError(f"{what}: expected a collection of int IDs, not a string")
    tolist = getattr(values, "tolist", None)
    if tolist is not None and getattr(values, "dtype", None) is not None and values.dtype.kind in "iu":
        values = tolist()
    return [_check_id(v, what) for v in values]


def _plan(load):
    if load is None:
        return _timef.LoadPlan.ALL_LAZY
    if not isinstance(load, _timef.LoadPlan):
        raise _timef.ValidationError("load: expected a timef.LoadPlan")
    return load


def _modalities(values, what):
    if values is None:
        return []
    if isinstance(values, str):
        return [values]
    return list(values)


def _task_type_of(kind):
    if kind is _timef.Task:
        return None
    if isinstance(kind, type) and issubclass(kind, _timef.Task) and hasattr(kind, "TASK_TYPE"):
        return kind.TASK_TYPE
    raise _timef.ValidationError(
        f"kind: {getattr(kind, '__name__', kind)!r} is not read by ID "
        "(use Record, Signal or a task class)")


def _check_parent(parent):
    if parent is not None:
        raise _timef.ValidationError(
            "parent: this release's reader has no parent lookups (parents arrive with composition)")


class TimeFReader:
    """Reads one committed release. Use as a context manager; close() releases open files."""

    def __init__(self, native):
        self._r = native

    @classmethod
    def open(cls, version_dir, *, sources_root=None):
        """Opens the release in ``version_dir``: checks the manifest and every file's presence and
        size, hashes nothing, opens no catalog."""
        if sources_root is not None:
            raise _timef.ValidationError(
                "sources_root: releases with payload sources are not readable by this build yet")
        return cls(_timef.Reader.open(str(version_dir)))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __getstate__(self):
        # Pickled (e.g. into a spawned DataLoader worker) as its path: the copy reopens.
        return {"path": self.path}

    def __setstate__(self, state):
        self._r = _timef.Reader.open(state["path"])

    @property
    def path(self):
        return self._r.path

    @property
    def manifest(self):
        """manifest.json as a dict."""
        return self._r.manifest

    def counters(self):
        """What the reader has touched since it opened (catalog queries, files, chunks, pages)."""
        return self._r.counters()

    def verify(self, progress=None):
        """Hashes every file of the release; FileError names the first that differs.
        ``progress(bytes_done, bytes_total)`` is called as the hashing goes."""
        self._r.verify(progress)

    def close(self):
        self._r.close()

    def read(self, *, load=None):
        """The whole dataset (records in stored read order, tasks by ID)."""
        return self._r.read(_plan(load))

    def record_ids(self):
        """Record IDs in stored read order."""
        return self._r.record_ids()

    def iter_records(self, *, record_ids=None, batch_size=_timef.RECORD_BATCH_SIZE, load=None):
        """Yields Records, built batch_size at a time (every requested ID is checked first)."""
        ids = None if record_ids is None else _check_ids(record_ids, "record_ids")
        stream = self._r.iter_records(ids, int(batch_size), _plan(load))
        while True:
            batch = stream.next_batch()
            if batch is None:
                return
            yield from batch

    def _inputs(self, inputs):
        if inputs is None:
            return None
        if isinstance(inputs, (str, bytes)):
            raise _timef.ValidationError("inputs: expected Records or record IDs, not a string")
        items = list(inputs)
        if all(isinstance(i, _timef.Record) for i in items):
            return items
        return _check_ids(items, "inputs")

    def read_tasks(self, *, inputs=None, split=None, required_modalities=None,
                   supported_modalities=None, task_type=None, load=None):
        """Tasks by ID; filters run in DuckDB before any task is built."""
        return self._r.read_tasks(self._inputs(inputs), split, task_type,
                                  _modalities(required_modalities, "required_modalities"),
                                  _modalities(supported_modalities, "supported_modalities"),
                                  _plan(load))

    def iter_tasks(self, *, inputs=None, split=None, required_modalities=None,
                   supported_modalities=None, task_type=None, batch_size=_timef.TASK_BATCH_SIZE,
                   load=None):
        """The tasks of read_tasks(), batch_size at a time."""
        stream = self._r.iter_tasks(self._inputs(inputs), split, task_type,
                                    _modalities(required_modalities, "required_modalities"),
                                    _modalities(supported_modalities, "supported_modalities"),
                                    int(batch_size), _plan(load))
        while True:
            batch = stream.next_batch()
            if batch is None:
                return
            yield from batch

    def get(self, kind, id, *, parent=None, load=None):
        """One object by ID: kind is timef.Record, timef.Signal or a task class."""
        return self.get_many(kind, [_check_id(id)], parent=parent, load=load)[0]

    def get_many(self, kind, ids, *, parent=None, load=None):
        """Objects by ID in the order given (a repeated ID gives the same object); NotFoundError
        names every missing ID before anything is returned."""
        _check_parent(parent)
        ids = _check_ids(ids)
        plan = _plan(load)
        if kind is _timef.Record:
            return self._r.get_records(ids, plan)
        if kind is _timef.Signal:
            return self._r.get_signals(ids, plan)
        return self._r.get_tasks(ids, _task_type_of(kind), plan)

    def signal_values(self, id):
        """A signal's values by ID without building its record (the fastest path to an array)."""
        return self._r.get_signal_values(_check_id(id))

    def read_task_table(self, *, inputs=None, split=None, required_modalities=None,
                        supported_modalities=None, task_type=None):
        """One row per task (Arrow table; see timef.Table)."""
        return self._r.read_task_table(self._inputs(inputs), split, task_type,
                                       _modalities(required_modalities, "required_modalities"),
                                       _modalities(supported_modalities, "supported_modalities"))

    def read_target_table(self, *, inputs=None, split=None, required_modalities=None,
                          supported_modalities=None, task_type=None):
        """One row per inline target."""
        return self._r.read_target_table(self._inputs(inputs), split, task_type,
                                         _modalities(required_modalities, "required_modalities"),
                                         _modalities(supported_modalities, "supported_modalities"))

    def read_annotation_table(self):
        """One row per annotation occurrence, then per registered annotation."""
        return self._r.read_annotation_table()


def open(dir_or_ref, *, root=None):  # noqa: A001 (the seed's name)
    """Opens a release directory (a registry ref ``org/name[@version]`` needs ``root``)."""
    import os
    path = os.fspath(dir_or_ref)
    if os.path.isdir(path):
        return TimeFReader.open(path)
    if root is None:
        root = os.environ.get("TIMEF_ROOT")
    if root is not None:
        name, _, version = path.partition("@")
        base = os.path.join(os.fspath(root), *name.split("/"))
        if version:
            candidate = os.path.join(base, version)
        else:
            candidate = _latest_version_dir(base)
        if candidate is not None and os.path.isdir(candidate):
            return TimeFReader.open(candidate)
    raise _timef.NotFoundError(f"{path}: no release directory (and no registry release of that ref)")


def _latest_version_dir(base):
    import os
    import re
    try:
        names = os.listdir(base)
    except FileNotFoundError:
        return None
    versions = [n for n in names if re.fullmatch(r"\d+\.\d+\.\d+", n)
                and os.path.isfile(os.path.join(base, n, "manifest.json"))]
    if not versions:
        return None
    return os.path.join(base, max(versions, key=lambda v: tuple(int(p) for p in v.split("."))))


def read_value(value):
    """The native value of a text handle (its read()); any other value unchanged."""
    if isinstance(value, (_timef.TextHandle, _timef.TextListHandle)):
        return value.read()
    return value


def read_values(values):
    """read_value() of each item as a tuple; None for None."""
    if values is None:
        return None
    return tuple(read_value(v) for v in values)
