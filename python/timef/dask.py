"""Importing recordings on a Dask distributed cluster (docs/importing.md, "On a Dask cluster").

``import_files(client, format, paths, root=..., dataset=..., version=..., card=...)`` splits the
files into contiguous partitions; one Dask task per partition imports its files, with the same C++
readers as ``timef.import_files``, into a **part release** under ``root``; one final task writes
the release ``<root>/<dataset>/<version>``, which imports every record of every part, in order,
by reference (``timef::Composer``, docs/composing.md): no value is copied. The result reads like
``timef.import_files`` of the same files: the same records, IDs, signals, values, axes, metadata
and annotations.

The part releases are the final release's payload sources (its manifest pins their files), so
they stay: part ``k`` is ``<root>/<dataset>.import-<version>-<run>/0.0.<k>``, where ``<run>`` is
12 hex digits drawn for each call (concurrent runs never share a part). Keep them next to the
final release (move them together); remove them only with it. When anything fails, every part of
the run is removed and nothing is published.

``root`` must be storage that every worker and the client see at the same path (a shared file
system), and ``paths`` paths that every worker can open (absolute paths are safest: records keep
``source_file`` as given). Requires Dask distributed (Debian ``python3-distributed``); importing
``timef`` does not.
"""

import os
import shutil
import uuid
import warnings

from distributed import wait

from . import _timef
from . import importers as _importers


def part_dataset_id(dataset, version, run):
    """The dataset ID of the part releases of run ``run`` of the import of ``dataset@version``."""
    return f"{dataset}.import-{version}-{run}"


def _partitions(paths, n):
    """``paths`` cut into ``n`` contiguous runs whose sizes differ by at most one, in order."""
    size, extra = divmod(len(paths), n)
    out, at = [], 0
    for k in range(n):
        take = size + (1 if k < extra else 0)
        out.append(paths[at:at + take])
        at += take
    return out


def _import_part(format, paths, root, dataset, version, card, read_options, write_options):
    """Runs on a worker: (the part's directory, the texts of the warnings the import raised)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", _importers.ImportedDataWarning)
        release_dir = _importers.import_files(format, paths, root=root, dataset=dataset,
                                              version=version, card=card, **read_options,
                                              **write_options)
    return release_dir, [str(w.message) for w in caught
                         if issubclass(w.category, _importers.ImportedDataWarning)]


def _compose(parts, root, dataset, version, card, write_options):
    return _timef._compose_parts([release_dir for release_dir, _ in parts], dict(card), root,
                                 dataset, version, dict(write_options))


def _remove(path):
    shutil.rmtree(path, ignore_errors=True)
    return not os.path.exists(path)


def import_files(client, format, paths, *, root, dataset, version, card, partitions=None,
                 keep_digital=False, spec_types=None, checksum=True, csv=None, **options):
    """Writes the release ``<root>/<dataset>/<version>`` from ``paths`` (one record per file, in
    order) on the Dask ``client``'s cluster and returns its directory (``root`` made absolute on
    the client, since the workers' working directories may differ), like
    ``timef.import_files`` (same ``format``, ``card``, ``keep_digital``, ``spec_types``,
    ``checksum``, ``csv`` and write ``options``). ``partitions``: how many part releases (Dask
    tasks) to cut the files into; default one per worker, at most one per file.

    The warnings of the workers' reads (``timef.importers.ImportedDataWarning``) are raised here
    once the release is written. Raises what the failing task raised (``FormatError`` naming the
    file for a bad input, ``ValidationError`` for specs that disagree across files, ...), after
    every task of the run has ended and every part of it is removed: nothing is published."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise _timef.ValidationError("import: inputs: no input files given")  # as import_files
    root = os.path.abspath(os.fspath(root))
    dataset, version, card = str(dataset), str(version), dict(card)
    if partitions is None:
        partitions = len(client.scheduler_info()["workers"])
    partitions = max(1, min(int(partitions), len(paths)))
    run = uuid.uuid4().hex[:12]
    parts_id = part_dataset_id(dataset, version, run)
    parts_dir = os.path.join(root, parts_id)
    read_options = {"keep_digital": keep_digital, "spec_types": dict(spec_types or {}),
                    "checksum": checksum, "csv": dict(csv or {})}
    ref = f"{dataset}@{version}"

    futures = []
    for k, chunk in enumerate(_partitions(paths, partitions)):
        part_card = dict(card)
        part_card["name"] = f"{card.get('name', dataset)} (import part {k + 1} of {partitions})"
        part_card["description"] = (
            f"Part {k + 1} of {partitions} of the import of {ref} by timef.dask.import_files "
            f"(run {run}): the records of {len(chunk)} {format} file(s). {ref} imports them by "
            f"reference and pins these files as its payload sources: keep this release with it.")
        futures.append(client.submit(_import_part, format, chunk, root, parts_id, f"0.0.{k}",
                                     part_card, read_options, options,
                                     key=f"timef-import-{run}-part-{k}", pure=False))
    final = client.submit(_compose, futures, root, dataset, version, card, options,
                          key=f"timef-import-{run}-compose", pure=False)
    try:
        release_dir = final.result()
    except BaseException:
        # A part still running would publish after a removal: let every task end first.
        wait(futures + [final])
        try:
            client.submit(_remove, parts_dir, key=f"timef-import-{run}-cleanup",
                          pure=False).result()
        finally:
            _remove(parts_dir)  # the client sees root too (shared storage); a no-op when gone
        raise
    # The workers' warnings (a unit that is not known, ...), raised here as timef.import_files
    # raises them.
    for _, messages in client.gather(futures):
        _importers._warn(messages)
    return release_dir
