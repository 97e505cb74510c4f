"""Importers (docs/importing.md): recordings in other formats read as timef Records, and releases
written from input files, by timef's own C++ readers.

``read_edf(path)`` returns one Record (EDF, EDF+C, BDF or BDF+C) and ``read_wfdb(path)`` one
WFDB record, to add to a ``timef.Dataset`` next to what you build; their values are read from the
files when the writer (or ``to_numpy()``) needs them. ``timef.import_files("edf", paths,
root=..., dataset=..., version=..., card=...)`` (or ``"wfdb"``) writes one release with one record
per file.
"""

import os
import warnings

from . import _timef

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


def import_files(format, paths, *, root, dataset, version, card, keep_digital=False,
                 spec_types=None, checksum=True, progress=None, annotators=None, **options):
    """Writes one release ``<root>/<dataset>/<version>`` from ``paths``, one record per file in
    order (``format``: "edf" or "wfdb"), and returns its directory. ``card``: the card's fields as
    for ``timef.write`` (name, description, license, ...). ``keep_digital``, ``spec_types`` and
    ``checksum`` as for ``read_edf``, ``annotators`` (wfdb) as for ``read_wfdb``; ``options`` and
    ``progress`` as for ``timef.write``. Nothing is published when any file fails."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    release_dir, messages = _timef._import_files(
        str(format), [os.fspath(p) for p in paths], dict(card), os.fspath(root), str(dataset),
        str(version), bool(keep_digital), dict(spec_types or {}), bool(checksum), options,
        progress, [str(a) for a in (annotators or [])])
    _warn(messages)
    return release_dir
