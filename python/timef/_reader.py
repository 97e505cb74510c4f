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


def _batch_size(call, value):
    """A batch size: an int of at least 1 (ValidationError otherwise). Any larger int is accepted:
    a batch holds at most what is read, so sizes beyond int64 mean "everything" and are clamped."""
    if isinstance(value, bool):
        raise _timef.ValidationError(f"{call}: batch_size is an int of at least 1, got {value!r}")
    try:
        size = operator.index(value)
    except TypeError:
        raise _timef.ValidationError(
            f"{call}: batch_size is an int of at least 1, got {value!r}") from None
    if size < 1:
        raise _timef.ValidationError(f"{call}: batch_size is an int of at least 1, got {size!r}")
    return min(size, _INT64_MAX)


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
    if parent is not None and not isinstance(parent, (_timef.ParentAlias, _timef.DatasetRef)):
        raise _timef.ValidationError(
            "parent: expected a timef.ParentAlias or a timef.DatasetRef (a plain string could be "
            "either)")
    return parent


class TimeFReader:
    """Reads one committed release. Use as a context manager; close() releases open files."""

    def __init__(self, native, sources_root=None, catalog_cache_bytes=None, decode_threads=None,
                 decode_budget_bytes=None, cache_dir=None):
        """``TimeFReader(version)`` reads a timef.DatasetVersion (from timef.open_local_version(),
        Registry.open_version() or Client.open_version()) without checking anything again: the
        version's opening checked the manifest, the files' presence and sizes and the payload
        sources' pins. ``cache_dir``: the download cache of a remote version's catalog (default
        ``$TIMEF_CACHE_DIR``). The other options are those of TimeFReader.open()."""
        if isinstance(native, _timef.DatasetVersion):
            version = native
            if sources_root is None:
                sources_root = version.sources_root
            native = self._from_version(version, catalog_cache_bytes, decode_threads,
                                        decode_budget_bytes, cache_dir)
        # Built by open() and Registry.open() from an opened release; a path given here would
        # otherwise fail only at the first read, with an unrelated AttributeError.
        if not isinstance(native, _timef.Reader):
            import os
            if isinstance(native, (str, bytes, os.PathLike)):
                raise _timef.ValidationError(
                    f"TimeFReader({os.fsdecode(native)!r}): the constructor takes no path; "
                    f"use TimeFReader.open(path) (or timef.open(path or ref))")
            raise _timef.ValidationError(
                f"TimeFReader: expected a timef.DatasetVersion or an opened release, not "
                f"{type(native).__name__}; use TimeFReader.open(path) (or timef.open(path or ref))")
        self._r = native
        self._sources_root = sources_root
        self._catalog_cache_bytes = catalog_cache_bytes
        self._decode_threads = decode_threads
        self._decode_budget_bytes = decode_budget_bytes
        self._cache_dir = None if cache_dir is None else __import__("os").fspath(cache_dir)

    @classmethod
    def open(cls, version_dir, *, sources_root=None, catalog_cache_bytes=None,
             decode_threads=None, decode_budget_bytes=None):
        """Opens the release in ``version_dir``: checks the manifest and every file's presence and
        size, then each payload source (found below ``sources_root``, by default the registry
        root holding the release) and its pinned files. Hashes nothing, opens no catalog.

        ``version_dir`` may be an ``http://``, ``https://`` or ``s3://`` URL of a release
        (docs/remote.md):
        files are read by byte ranges with the sizes the manifest records, and the catalog is
        fetched once into ``$TIMEF_CACHE_DIR`` (default ``~/.cache/timef``) and verified.

        ``catalog_cache_bytes`` bounds the catalog rows that lookups of records and signals by ID
        (``get``, ``get_many``) keep in memory after the first one, so later lookups run no SQL
        (default 128 MiB; 0 keeps none).

        ``decode_threads`` (1 to 256, default 1): threads that decode values at once in a batch
        read (``load_values``, and reads whose ``load`` plan loads signal values). The values are
        the same for any count.

        ``decode_budget_bytes`` (at least 1, default 256 MiB): the most bytes of decoded buffers
        (decompressed Parquet pages, decoded Zarr chunks) the reader holds at once over all its
        threads and open files; a page or chunk that does not fit is a ``timef.FormatError``
        naming the file (docs/format.md §7.7), never unbounded memory."""
        import os
        root = None if sources_root is None else os.fspath(sources_root)
        return cls(cls._native(os.fspath(version_dir), root, catalog_cache_bytes, decode_threads,
                               decode_budget_bytes),
                   root, catalog_cache_bytes, decode_threads, decode_budget_bytes)

    @staticmethod
    def _options(catalog_cache_bytes, decode_threads, decode_budget_bytes, cache_dir):
        import os
        options = {}
        if decode_budget_bytes is not None:
            options["decode_budget_bytes"] = decode_budget_bytes
        if catalog_cache_bytes is not None:
            options["catalog_cache_bytes"] = int(catalog_cache_bytes)
        if decode_threads is not None:
            options["decode_threads"] = int(decode_threads)
        if cache_dir is not None:
            options["cache_dir"] = os.fspath(cache_dir)
        return options

    @classmethod
    def _native(cls, path, sources_root, catalog_cache_bytes, decode_threads=None,
                decode_budget_bytes=None, cache_dir=None):
        return _timef.Reader.open(path, sources_root, **cls._options(
            catalog_cache_bytes, decode_threads, decode_budget_bytes, cache_dir))

    @classmethod
    def _from_version(cls, version, catalog_cache_bytes, decode_threads, decode_budget_bytes,
                      cache_dir):
        return _timef.Reader.from_version(version, **cls._options(
            catalog_cache_bytes, decode_threads, decode_budget_bytes, cache_dir))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __getstate__(self):
        # Pickled (e.g. into a spawned DataLoader worker) as its path: the copy reopens.
        return {"path": self.path, "sources_root": self._sources_root,
                "catalog_cache_bytes": self._catalog_cache_bytes,
                "decode_threads": self._decode_threads,
                "decode_budget_bytes": self._decode_budget_bytes, "cache_dir": self._cache_dir}

    def __setstate__(self, state):
        self._sources_root = state.get("sources_root")
        self._catalog_cache_bytes = state.get("catalog_cache_bytes")
        self._decode_threads = state.get("decode_threads")
        self._decode_budget_bytes = state.get("decode_budget_bytes")
        self._cache_dir = state.get("cache_dir")
        self._r = self._native(state["path"], self._sources_root, self._catalog_cache_bytes,
                               self._decode_threads, self._decode_budget_bytes, self._cache_dir)

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

    def signal_ids(self, *, order="records"):
        """Every signal ID in storage order: with ``order="records"``, records in read order, a
        record's signals by where their values live; with ``order="values"``, by where the values
        live alone (a shard's rows front to back, so consecutive IDs share pages whatever record
        they belong to; signals without values last). Cut it into batches for ``load_values`` to
        read every value without building records (``iter_values`` does that). ValidationError
        for another order."""
        if order not in ("records", "values"):
            raise _timef.ValidationError(
                f"signal_ids: order is 'records' or 'values', got {order!r}")
        return self._r.signal_ids(order == "values")

    def iter_values(self, *, batch_size=256):
        """A values-only epoch: yields ``(ids, arrays)`` for ``batch_size`` signals at a time in
        storage order (``signal_ids``), each batch decoded on the reader's ``decode_threads``
        threads; no record objects are built. A signal stored without values gives None in
        ``arrays``. ValidationError (at the call) for a batch_size below 1."""
        batch_size = _batch_size("iter_values", batch_size)
        native = self._r

        def batches():
            ids = native.signal_ids()
            for at in range(0, len(ids), batch_size):
                batch = ids[at:at + batch_size]
                yield batch, native.load_values(batch, True)
        return batches()

    def iter_records(self, *, record_ids=None, batch_size=_timef.RECORD_BATCH_SIZE, load=None):
        """Yields Records, built batch_size at a time (every requested ID is checked first)."""
        ids = None if record_ids is None else _check_ids(record_ids, "record_ids")
        stream = self._r.iter_records(ids, _batch_size("iter_records", batch_size), _plan(load))
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
                                    _batch_size("iter_tasks", batch_size), _plan(load))
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
        names every missing ID before anything is returned. With ``parent=`` (a ParentAlias, or a
        DatasetRef that exactly one alias names) the IDs are the parent's, and the objects are
        the child's imported copies."""
        parent = _check_parent(parent)
        ids = _check_ids(ids)
        plan = _plan(load)
        if parent is not None:
            return self._by_parent(kind, ids, parent, plan)
        if kind is _timef.Record:
            return self._r.get_records(ids, plan)
        if kind is _timef.Signal:
            return self._r.get_signals(ids, plan)
        return self._r.get_tasks(ids, _task_type_of(kind), plan)

    def _by_parent(self, kind, ids, parent, plan):
        # One lookup per distinct ID; every ID is checked before any object is returned.
        found = {}
        missing = []
        for i in ids:
            if i in found:
                continue
            try:
                if kind is _timef.Record:
                    found[i] = self._r.get_record_by_parent(parent, i, plan)
                elif kind is _timef.Signal:
                    found[i] = self._r.get_signal_by_parent(parent, i, plan)
                else:
                    found[i] = self._r.get_task_by_parent(parent, i, _task_type_of(kind), plan)
            except _timef.NotFoundError as e:
                missing.append((i, e))
        if len(missing) == 1:
            raise missing[0][1]
        if missing:
            raise _timef.NotFoundError(
                f"{parent!r}: no imported {getattr(kind, '__name__', kind)} with parent ID "
                + ", ".join(str(i) for i, _ in missing))
        return [found[i] for i in ids]

    def signal_values(self, id):
        """A signal's values by ID without building its record (the fastest path to an array)."""
        return self._r.get_signal_values(_check_id(id))

    def load_values(self, ids, *, writable=False):
        """The values of many signals by ID, as numpy arrays in the order given, decoded on the
        reader's ``decode_threads`` threads (pass IDs in storage order, e.g. a record's signals
        in turn, and each lane decodes each page once). The arrays are read-only views of the
        decoded buffers; ``writable=True`` hands each buffer over writable instead (no copy, e.g.
        for ``torch.from_numpy``; a buffer the call does not hold alone is copied). NotFoundError names every unknown ID."""
        return self._r.load_values(_check_ids(ids), False, bool(writable))

    def load_values_into(self, ids, out, *, validity=None):
        """Decodes the values of many signals straight into arrays you keep, with no array made
        per signal: ``out`` is a 2-D array with one row per ID, each signal's values written from
        the start of its row (the rest left as it is; pad first, e.g. with zeros), or a list of
        one array per ID holding exactly its values. The dtype is the signal's storage type
        (``numpy.bool_`` for bool, ``int32`` codes for enum); arrays must be writable and
        C-contiguous. ``validity`` (the same form, bool or uint8, one entry per step) receives 1
        for a present step and 0 for a null one, and is required when a signal has nulls. Decoded
        like ``load_values`` (storage order, on the ``decode_threads`` threads). Returns each
        signal's number of steps (int64 array). ValidationError names the signal whose buffer does
        not fit; str signals have no such buffer."""
        return self._r.load_values_into(_check_ids(ids), out, validity)

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


class Registry:
    """A registry root: ``<root>/<org>/<name>/<version>/`` releases, re-read on every call.

    The root may be an ``http://`` or ``https://`` URL of the same tree on a web server
    (docs/remote.md "Registries"): a web server offers no listing, so a URL registry lists nothing
    and resolves only exact refs ``org/name@x.y.z``."""

    def __init__(self, root):
        import os
        self._g = _timef._Registry.open(os.fspath(root))

    @property
    def root(self):
        return self._g.root

    def datasets(self):
        """Dataset IDs with at least one committed version, sorted."""
        return self._g.datasets()

    def versions(self, dataset_id):
        """Committed versions, ascending."""
        return self._g.versions(dataset_id)

    def latest(self, dataset_id):
        return self._g.latest(dataset_id)

    def resolve(self, ref):
        """``org/name`` (latest) or ``org/name@x.y.z`` to its release directory."""
        return self._g.resolve(ref)

    @property
    def remote(self):
        """Whether the root is a URL."""
        return self._g.remote

    def open_version(self, ref):
        """The timef.DatasetVersion ``ref`` names (``org/name`` for the latest version, or
        ``org/name@x.y.z``), opened with its payload sources found in this registry: the manifest
        checked against its place, every file's presence and size, each source's pins. Reads no
        values. timef.NotFoundError when the release is not here."""
        return self._g.open_version(ref)

    def open(self, ref):
        """A TimeFReader of the release, with its payload sources found in this registry."""
        return TimeFReader(self._g.open_release(ref), self.root)


def open_registry(root_or_url):
    """A timef.Registry of a local root or an ``http(s)://`` URL root."""
    return Registry(root_or_url)


def open_local_version(dir, sources_root=None):  # noqa: A002 (the seed's name)
    """Opens the version in the directory ``dir`` as a timef.DatasetVersion: manifest.json valid
    and of a supported format version (timef.ManifestError; a missing one raises
    timef.MissingFileError, a FileNotFoundError), every listed file present with its recorded
    size, each payload source present with its manifest still recording each pin, and each pinned
    file present with its size. Hashes nothing, reads no values.

    Payload sources are found as ``<sources_root>/<org>/<name>/<version>``; by default under the
    root that holds ``dir`` as ``<root>/<org>/<name>/<version>``. A version with payload sources
    stored otherwise needs ``sources_root`` (timef.ValidationError without it)."""
    import os
    root = None if sources_root is None else os.fspath(sources_root)
    return _timef.open_local_version(os.fspath(dir), root)


class Client:
    """Resolves refs against a list of registries (local roots and ``http(s)://`` URLs, searched
    in order) and opens them, remote ones through the download cache.

    ``registries``: the roots and URLs; default ``$TIMEF_REGISTRIES`` (separated by ``,``), else
    ``$TIMEF_ROOT``. ``cache_dir``: where remote catalogs are cached; default ``$TIMEF_CACHE_DIR``,
    else ``$XDG_CACHE_HOME/timef``, else ``~/.cache/timef``. ``org/name`` resolves to the latest
    version of the first local registry that has the dataset (a URL registry has no listing);
    ``org/name@x.y.z`` to the first registry that holds it."""

    def __init__(self, cache_dir=None, *, registries=None):
        import os
        if isinstance(registries, (str, bytes, os.PathLike)):
            raise _timef.ValidationError(
                "Client: registries is a list of roots and URLs, not a single one")
        roots = [os.fspath(r) for r in (registries or [])]
        cache = None if cache_dir is None else os.fspath(cache_dir)
        self._c = _timef._Client(roots, cache)

    @property
    def registries(self):
        return self._c.registries

    @property
    def cache_dir(self):
        return self._c.cache_dir

    def open_version(self, ref):
        """The timef.DatasetVersion ``ref`` names, from the first registry that holds it."""
        return self._c.open_version(ref)

    def open(self, ref, **options):
        """A TimeFReader of ``ref`` (options: those of TimeFReader.open but sources_root)."""
        return TimeFReader(self.open_version(ref), cache_dir=self.cache_dir, **options)

    def load(self, ref):
        """The whole dataset of ``ref`` with every value loaded; the reader is closed after."""
        with self.open(ref) as reader:
            return reader.read(load=_timef.LoadPlan.ALL_EAGER)


def open(dir_or_ref, *, root=None):  # noqa: A001 (the seed's name)
    """Opens a release directory, an ``http://``, ``https://`` or ``s3://`` URL of a release
    (docs/remote.md), or a registry ref ``org/name[@x.y.z]`` found below ``root`` (default
    ``$TIMEF_ROOT``; an ``s3://bucket/prefix`` root is listed to find the latest version)."""
    import os
    path = os.fspath(dir_or_ref)
    if path.lower().startswith(("http://", "https://", "s3://")) or os.path.isdir(path):
        return TimeFReader.open(path)
    if root is None:
        root = os.environ.get("TIMEF_ROOT")
    if root is None:
        raise _timef.ValidationError(
            f"{path}: not a release directory; a ref needs root= (or $TIMEF_ROOT)")
    if str(root).lower().startswith("s3://"):
        return TimeFReader.open(_timef.resolve_remote_ref(str(root), path))
    return Registry(root).open(path)


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
