"""timef: read and write TimeF time-series datasets.

Reading::

    import timef
    with timef.TimeFReader.open(release_dir) as reader:
        for record in reader.iter_records():
            lead = record.signals[0].to_numpy()

Writing: build a timef.Dataset of Records, Sources, Signals (numpy values, or a callable returning
them when the writer needs them) and tasks, then ``timef.write(dataset, root, card={...})``.

Errors are timef.Error subclasses: ValidationError (NotFoundError, also a LookupError),
FormatError (FileError with MissingFileError, also a FileNotFoundError; ManifestError) and
ReaderError. docs/python.md has the whole guide.
"""

from . import _timef
from ._timef import (  # noqa: F401
    Annotatable, Annotation, Dataset, Error, FileError, FormatError, LoadPlan, Loading,
    ManifestError, MissingFileError, NotFoundError, ReaderError, Record, RECORD_BATCH_SIZE,
    ScopedSpan, Signal, SignalValues, Source, Spec, StepInterval, StepPoint, Table, Task,
    TASK_BATCH_SIZE, TextHandle, TextListHandle, TimeAxis, TimeInterval, TimePoint,
    ValidationError,
)
from ._tasks import (  # noqa: F401
    AnswerTask, ClassificationTask, ForecastingTask, ScalarPredictionTask, TASK_CLASSES,
    TemporalLocalizationTask, TsCorrespondenceTask, TsEditingTask, TsGenerationTask,
)
from ._reader import (  # noqa: F401
    Client, Registry, TimeFReader, open, open_local_version, open_registry, read_value, read_values,
)
from ._timef import DatasetRef, DatasetVersion, ParentAlias  # noqa: F401
from . import importers  # noqa: F401
from .importers import import_files  # noqa: F401
from ._view import ViewServer, view  # noqa: F401

__version__ = _timef.__version__

# The write options, declared once in C++ (include/timef/write_options.h).
_OPTION_NAMES = _timef._write_option_names


def pull(url, dir, *, threads=4):  # noqa: A002 (the CLI's name)
    """Downloads the release at an http(s) or s3 URL into the new directory ``dir`` (docs/remote.md):
    ``threads`` files at a time, each checked against the manifest's size and sha256; ``dir``
    appears complete or not at all, and an interrupted pull resumes from ``dir``.part. Returns a
    dict: release_dir, files_downloaded, files_kept, bytes_downloaded."""
    import os
    return _timef.pull(str(url), os.fspath(dir), threads=int(threads))


def push(release, url, *, threads=4):
    """Uploads the local release directory ``release`` to
    ``s3://bucket/<prefix>/<org>/<name>/<version>`` (docs/remote.md "Push"): every file checked
    against the manifest and uploaded below a temporary prefix, copied into place on the server,
    ``manifest.json`` last, so that no reader sees half a version. Credentials, region and endpoint
    come from the ``AWS_*`` variables. Returns a dict: url, files, bytes_uploaded,
    temporary_objects_left."""
    import os
    return _timef.push(os.fspath(release), str(url), threads=int(threads))


def ls_remote(root):
    """The committed releases below an ``s3://bucket/prefix`` registry root, sorted by dataset
    then version: a list of dicts (dataset_id, version, url)."""
    return _timef.ls_remote(str(root))


def resolve_remote_ref(root, ref):
    """The s3:// URL of ``org/name`` (its latest committed version) or ``org/name@x.y.z`` in the
    registry root ``root``; raises timef.NotFoundError when it is not committed there."""
    return _timef.resolve_remote_ref(str(root), str(ref))


def gc(root, *, older_than_s=24 * 3600, dry_run=False):
    """Removes the stale staging directories (``<version>.tmp-*``) of a registry root that nothing
    touched for ``older_than_s`` seconds; returns what it removed (with ``dry_run``: would remove).
    Never automatic: a writer still at work keeps its directory young."""
    import os
    return _timef.gc(os.fspath(root), older_than_s=int(older_than_s), dry_run=bool(dry_run))


def upgrade(legacy_dir, out, *, version=None):
    """Rewrites a legacy release (Parquet control tables, docs/format.md §15) as a native release
    under the registry root ``out`` (at the legacy version, or ``version``). Returns
    ``(release_dir, warnings)``: the new directory and one line per mapping that lost information
    (a unit that does not parse, an unknown license, an ignored column). A legacy directory also
    opens directly with ``timef.open`` / ``TimeFReader.open``."""
    import os
    release_dir, warnings = _timef._upgrade(os.fspath(legacy_dir), os.fspath(out), version)
    return release_dir, list(warnings)


def write(dataset, root=None, *, card, release_dir=None, progress=None, **options):
    """Writes ``dataset`` as one committed release and returns its directory.

    ``root``: a registry root (the release goes to ``<root>/<org>/<name>/<version>``), or
    ``release_dir``: an explicit release directory. ``card``: the dataset card as a dict (name,
    description, license, license_url, domains, tags, source_url, source_revision, citation,
    access, access_url, value_encoding). ``options``: the write options by name, declared with
    their defaults and ranges in include/timef/write_options.h (``_OPTION_NAMES``: chunk_max_bytes,
    threads, compression, values_backend = "parquet" or "zarr", ...). ``progress``: called as
    ``progress(stage, bytes_done, bytes_total, shard)``.

    IDs are assigned to the objects that have none. On any failure nothing is published.
    """
    import os
    if (root is None) == (release_dir is None):
        raise ValidationError("write: give exactly one of root and release_dir")
    for name in options:
        if name not in _OPTION_NAMES:
            raise ValidationError(f"write: unknown option '{name}'")
    return _timef._write(dataset, dict(card),
                         None if root is None else os.fspath(root),
                         None if release_dir is None else os.fspath(release_dir),
                         options, progress)


__all__ = [n for n in dir() if not n.startswith("_") and n not in ("annotations",)]
