"""The model dump of src/model/dump.cc, rebuilt from the Python objects alone.

Comparing it with the C++ dump of the same release checks every field the Python module exposes
against the C++ reader, field by field (and with values=True every value, floats by bit pattern).
"""

import math
import struct

import numpy as np
import timef


def _number(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == 0 and math.copysign(1.0, v) < 0:
        return "-0"
    return v


def _kind(value):
    if value is None:
        return "marker"
    if isinstance(value, timef.TextHandle):
        return "text"
    if isinstance(value, timef.TextListHandle):
        return "text_list"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return "float"


def _rendered(value):
    kind = _kind(value)
    if kind in ("text", "text_list"):
        return value.read()
    if kind == "float":
        return _number(value)
    return value


def _values(signal):
    array = signal.to_numpy()
    validity = []
    if isinstance(array, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(array)
        if mask.ndim > 1:
            mask = mask.reshape(mask.shape[0], -1).any(axis=1)
        validity = [0 if m else 1 for m in mask]
        array = array.data
    flat = np.asarray(array).reshape(-1)
    dtype = signal.spec.dtype
    # As the C++ dump: numbers as one string of space-separated tokens, strings as a list.
    if flat.dtype == np.float32:
        data = " ".join("%08x" % b for b in flat.view(np.uint32).tolist())
    elif flat.dtype == np.float64:
        data = " ".join("%016x" % b for b in flat.view(np.uint64).tolist())
    elif flat.dtype == np.bool_:
        data = " ".join(str(int(b)) for b in flat.tolist())
    elif flat.dtype.kind in "iu":
        data = " ".join(str(v) for v in flat.tolist())
    else:
        data = flat.tolist()
    return {"dtype": dtype, "data": data, "validity": validity}


class Dumper:
    def __init__(self, values):
        self.values = values
        self.paths = {}
        self.contents = []
        self.content_index = {}
        self.axes = []
        self.axis_index = {}
        self.keep = []  # objects whose id() keys the maps: kept alive for the whole dump

    def _index(self, owner, path):
        for i, a in enumerate(owner.annotations):
            self.keep.append(a)
            self.paths[id(a)] = f"{path} annotations[{i}]"

    def _index_source(self, source, path):
        here = f"{path} / {source.name}"
        self._index(source, here)
        for s in sorted(source.signals, key=lambda s: s.id):
            self._index(s, f"signal {s.id}")
        for c in sorted(source.children, key=lambda c: c.name):
            self._index_source(c, here)

    def _content(self, content):
        self.keep.append(content)
        key = id(content)
        if key not in self.content_index:
            self.content_index[key] = len(self.contents)
            self.contents.append({
                "name": content.key, "value_kind": _kind(content.value),
                "value": _rendered(content.value), "unit": content.unit,
                "description": content.description, "metadata": content.metadata})
        return self.content_index[key]

    def _occurrence(self, a):
        span = a.span
        if span is None:
            rendered = {"type": "static"}
        elif isinstance(span, timef.TimePoint):
            rendered = {"type": "point", "start_us": span.offset_us}
        else:
            rendered = {"type": "interval", "start_us": span.start_us, "end_us": span.end_us}
        return {"content": self._content(a.content), "span": rendered,
                "provenance": a.provenance,
                "confidence": None if a.confidence is None else _number(a.confidence),
                "metadata": a.metadata, "inherited_from": a.inherited_from}

    def _occurrences(self, owner):
        return [self._occurrence(a) for a in owner.annotations]

    def _axis(self, axis):
        self.keep.append(axis)
        key = id(axis)
        if key not in self.axis_index:
            self.axis_index[key] = len(self.axes)
            r = {"type": axis.type}
            if axis.type == "regular":
                r.update(period_numerator_us=axis.period_numerator_us,
                         period_denominator=axis.period_denominator,
                         start_index=axis.start_index, offset_us=axis.offset_us)
            elif axis.type == "irregular":
                r.update(n_values=axis.n_values, first_us=axis.first_us, last_us=axis.last_us)
            self.axes.append(r)
        return self.axis_index[key]

    def _spec(self, s):
        return {"spec_type": s.spec_type, "name": s.name, "unit": s.unit, "dtype": s.dtype,
                "categories": list(s.categories), "value_shape": list(s.value_shape),
                "dimension_names": list(s.dimension_names), "nullable": s.nullable,
                "modality": s.modality}

    def _signal(self, s):
        axis = self._axis(s.axis)
        if self.values and s.axis.type == "irregular" and "offsets_us" not in self.axes[axis]:
            self.axes[axis]["offsets_us"] = s.time_offsets_us().tolist()
        out = {"signal_id": s.id, "name": s.name, "spec": self._spec(s.spec), "axis": axis,
               "n_values": s.n_values, "source_id": s.source_id, "metadata": s.metadata,
               "import": s.import_marker, "annotations": self._occurrences(s)}
        if self.values:
            out["values"] = _values(s) if s.has_values else None
        return out

    # The C++ dump renders a source's signals and children (and a record's sources) before the
    # object's own annotations, which fixes the order contents and axes are first seen in.
    def _source(self, src):
        signals = [self._signal(s) for s in sorted(src.signals, key=lambda s: s.id)]
        children = [self._source(c) for c in sorted(src.children, key=lambda c: c.name)]
        return {"name": src.name, "metadata": src.metadata,
                "annotations": self._occurrences(src), "signals": signals, "children": children}

    def _record(self, r):
        span = r.time_span
        sources = [self._source(s) for s in sorted(r.sources, key=lambda s: s.name)]
        return {"record_id": r.id, "import": r.import_marker, "start_time_us": r.start_time_us,
                "time_span": None if span is None else [span.start_us, span.end_us],
                "metadata": r.metadata, "annotations": self._occurrences(r), "sources": sources}

    def _span(self, s):
        return {"kind": s.kind, "start": s.start, "end": s.end,
                "signals": [sig.id for sig in s.signals]}

    def _target(self, t):
        if isinstance(t, timef.TextHandle):
            return {"kind": "text", "value": t.read()}
        if isinstance(t, bool):
            return {"kind": "boolean", "value": t}
        if isinstance(t, int):
            return {"kind": "integer", "value": t}
        if isinstance(t, float):
            return {"kind": "float", "value": _number(t)}
        if isinstance(t, timef.Record):
            return {"kind": "record", "value": t.id}
        if isinstance(t, timef.Signal):
            return {"kind": "signal", "value": t.id}
        return {"kind": t.kind, "value": self._span(t)}

    def _refs(self, refs):
        return [self.paths.get(id(a), "unattached " + a.key) for a in refs]

    def _task(self, t):
        return {
            "task_id": t.id, "task_type": t.task_type, "import": t.import_marker,
            "inputs": [r.id for r in t.inputs],
            "targets": None if t.targets is None else [self._target(x) for x in t.targets],
            "prompt": timef.read_value(t.prompt), "rationale": timef.read_value(t.rationale),
            "split": t.split, "input_modalities": t.input_modalities,
            "scope": None if t.scope is None else self._span(t.scope),
            "input_annotations": self._refs(t.input_annotations),
            "target_annotations": self._refs(t.target_annotations),
            "from_tasks": [f.id for f in t.from_tasks],
            "annotations": self._occurrences(t), "metadata": t.metadata,
            "target_schema": t.target_schema, "unit": t.unit, "target_name": t.target_name,
            "mode": t.mode, "candidate_records": [r.id for r in t.candidate_records]}

    def run(self, ds):
        records = sorted(ds.records, key=lambda r: r.id)
        tasks = sorted(ds.tasks, key=lambda t: t.id)
        self._index(ds, "dataset")
        for i, a in enumerate(ds.registered_annotations):
            self.keep.append(a)
            self.paths[id(a)] = f"registered[{i}]"
        for r in records:
            path = f"record {r.id}"
            self._index(r, path)
            for s in sorted(r.sources, key=lambda s: s.name):
                self._index_source(s, path)
        for t in tasks:
            self._index(t, f"task {t.id}")
        out = {"dataset_id": ds.dataset_id, "version": ds.version, "parents": ds.parents,
               "annotations": self._occurrences(ds),
               "registered_annotations": [self._occurrence(a) for a in ds.registered_annotations],
               "records": [self._record(r) for r in records],
               "tasks": [self._task(t) for t in tasks]}
        out["axes"] = self.axes
        out["contents"] = self.contents
        return out


def dump(dataset, values=False):
    return Dumper(values).run(dataset)


def normalized(dumped):
    """Validity lists that hold no null compare equal to an empty list (either side may omit it)."""
    def walk(o):
        if isinstance(o, dict):
            if "validity" in o and isinstance(o["validity"], list) and all(v == 1 for v in o["validity"]):
                o["validity"] = []
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(dumped)
    return dumped
