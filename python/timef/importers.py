"""Importers (docs/importing.md): recordings in other formats read as timef Records, and releases
written from input files, by timef's own C++ readers.

``read_edf(path)`` returns one Record (EDF, EDF+C, BDF or BDF+C), ``read_wfdb(path)`` one WFDB
record and ``read_csv(path)`` one CSV/TSV file, to add to a ``timef.Dataset`` next to what you
build; their values are read from the files when the writer (or ``to_numpy()``) needs them.
``timef.import_files("edf" | "csv" | "wfdb", paths, root=..., dataset=..., version=..., card=...)``
writes one release with one record per file (per WFDB record).
"""

import os
import warnings

from . import _timef

# The zstd level import_files compresses at unless given one (C++ kImportCompressionLevel).
IMPORT_COMPRESSION_LEVEL = _timef.IMPORT_COMPRESSION_LEVEL

# (label prefix, spec_type, spec name) rows, in match order; a label matching none is "signal".
MODALITY_TABLE = tuple(tuple(row) for row in _timef._MODALITY_TABLE)


class ImportedDataWarning(UserWarning):
    """Something of an input was stored differently than written (a physical dimension that is not
    a known unit is stored as unknown); the message names the file and the field."""


def _warn(messages):
    for message in messages:
        warnings.warn(message, ImportedDataWarning, stacklevel=3)


def read_edf(path, *, keep_digital=False, spec_types=None, checksum=True):
    """Reads an EDF/EDF+C/BDF/BDF+C file as a Record: one root source named after the file, one
    signal per ordinary channel (float32 physical values, or with ``keep_digital`` the digital
    integers with ``gain`` and ``offset`` in the signal's metadata), the annotation channels' TAL
    entries as annotations (key ``label_interval`` with a duration, ``label`` without), the header's
    fields in metadata. ``spec_types``: {label: spec_type}, wins over MODALITY_TABLE.
    ``checksum``: hash the file into the record's metadata (``source_sha256``). Raises FormatError
    naming the file and the header field for a malformed or EDF+D file."""
    record, messages = _timef._read_edf(os.fspath(path), bool(keep_digital),
                                        dict(spec_types or {}), bool(checksum))
    _warn(messages)
    return record


def read_csv(path, *, time_column=None, time_unit="auto", rate=None, units=None, delimiter=None,
             dtype="float64", tolerance_us=1, spec_types=None, checksum=True):
    """Reads a CSV/TSV file (a header line, one row per time step) as a Record: one root source
    named after the file, one nullable signal per column other than the time column (an empty cell
    is a null), named by its header without a ``(unit)`` / ``[unit]`` suffix.

    ``time_column``: the time column's name (default: the first named time, t, timestamp or
    datetime); ``time_unit``: "s", "ms", "iso" or "auto" (the name's unit suffix, else a number is
    seconds and anything else ISO-8601); ``rate``: no time column, rows at this rate in Hz.
    Evenly spaced times (each within ``tolerance_us`` µs) make a regular axis, others an
    irregular one. ``units``: {column: unit}; ``delimiter``: one character (default from the
    extension: .csv ',', .tsv/.tab tab); ``dtype``: "float64" or "float32" (an error for a value
    float32 cannot hold exactly). ``spec_types`` and ``checksum`` as for ``read_edf``. Raises
    FormatError naming the file, line and column for a ragged row, a cell that is not a number, a
    bad or decreasing time, or an empty file (docs/importing.md, "CSV and TSV")."""
    record, messages = _timef._read_csv(os.fspath(path), dict(spec_types or {}), bool(checksum),
                                        _csv_options(time_column, time_unit, rate, units,
                                                     delimiter, dtype, tolerance_us))
    _warn(messages)
    return record


def read_wfdb(path, *, keep_digital=False, spec_types=None, checksum=True, annotators=None):
    """Reads a WFDB record (``path``: its ``.hea`` file or its record name) as a Record: one root
    source named after the record, one signal per signal line named by its description (float32
    physical values (digital - baseline) / gain, or with ``keep_digital`` the digital integers with
    ``gain`` and ``offset`` in the signal's metadata; the format's invalid value is a null), the
    annotation file's beats and events as point annotations (key ``label``, the mnemonic as text;
    ``sample``, ``subtype``, ``chan``, ``num`` and the ``aux`` note in each annotation's
    ``metadata``), the header's fields in metadata. ``annotators``: the annotation files
    ``<record>.<name>`` to read (default: ``atr`` when it exists). The signal files' checksums are
    verified when the values are read. Raises FormatError naming the file and the line/field for a
    malformed or multi-segment record, MissingFileError for a missing file."""
    record, messages = _timef._read_wfdb(os.fspath(path), bool(keep_digital),
                                         dict(spec_types or {}), bool(checksum),
                                         [str(a) for a in (annotators or [])])
    _warn(messages)
    return record


def _csv_options(time_column=None, time_unit="auto", rate=None, units=None, delimiter=None,
                 dtype="float64", tolerance_us=1):
    return {"time_column": time_column, "time_unit": time_unit, "rate": rate,
            "units": dict(units) if units else None, "delimiter": delimiter, "dtype": dtype,
            "tolerance_us": tolerance_us}


def import_files(format, paths, *, root, dataset, version, card, jobs=None, keep_digital=False,
                 spec_types=None, checksum=True, csv=None, progress=None, annotators=None,
                 **options):
    """Writes one release ``<root>/<dataset>/<version>`` from ``paths``, one record per file in
    order (``format``: "edf", "csv" or "wfdb"), and returns its directory. ``card``: the card's
    fields as for ``timef.write`` (name, description, license, ...). ``keep_digital``,
    ``spec_types`` and ``checksum`` as for ``read_edf``; ``csv``: a dict of ``read_csv``'s keyword
    options (time_column, rate, units, ...); ``annotators`` (wfdb) as for ``read_wfdb``;
    ``options`` and ``progress`` as for ``timef.write``, except that ``compression_level``
    defaults to ``IMPORT_COMPRESSION_LEVEL`` (3, not the writer's 19, as ``timef import``).
    ``jobs``: the threads of the import (``timef import --jobs``), the same as ``timef.write``'s
    ``threads=`` (give one of them); the release's bytes are the same for any count. Nothing is
    published when any file fails."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    options.setdefault("compression_level", IMPORT_COMPRESSION_LEVEL)
    if jobs is not None:
        if "threads" in options and options["threads"] != jobs:
            raise ValueError(f"import_files: jobs={jobs!r} and threads={options['threads']!r} "
                             "are one setting; give one of them")
        options["threads"] = jobs
    release_dir, messages = _timef._import_files(
        str(format), [os.fspath(p) for p in paths], dict(card), os.fspath(root), str(dataset),
        str(version), bool(keep_digital), dict(spec_types or {}), bool(checksum),
        _csv_options(**(csv or {})), options, progress, [str(a) for a in (annotators or [])])
    _warn(messages)
    return release_dir
