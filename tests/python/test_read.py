"""Reading hello-world from Python against the C++ reader (field by field, values bit-exact)."""

import json

import numpy as np
import pydump
import pytest
import timef


def cxx_dump(reader, values):
    return json.loads(reader._r._dump(values))


@pytest.mark.parametrize("values", [False, True])
def test_dump_equals_cxx(reader, values):
    ours = pydump.normalized(pydump.dump(reader.read(), values=values))
    theirs = pydump.normalized(cxx_dump(reader, values))
    for key in theirs:
        assert ours[key] == theirs[key], key
    assert ours == theirs


def test_every_dtype_is_covered(reader):
    dtypes = {s.spec.dtype for r in reader.read().records for s in r.signals}
    assert dtypes == {"bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float32",
                      "float64", "str", "enum"}


def test_dtypes_and_special_floats(reader):
    ds = reader.read(load=timef.LoadPlan.ALL_EAGER)
    by_name = {s.name: s for r in ds.records for s in r.signals}
    by_id = {s.id: s for r in ds.records for s in r.signals}
    lead = by_id[2].to_numpy()  # lead_II of record 1 carries the special floats
    assert lead.dtype == np.float32 and lead.shape == (40000,)
    assert np.isnan(lead[5000])
    assert lead[12345] == np.inf and lead[20000] == -np.inf
    assert np.signbit(lead[39999]) and lead[39999] == 0
    assert by_name["rhythm"].to_numpy().dtype == np.int32
    assert by_name["rhythm"].spec.categories == ("normal", "af", "noise")
    assert by_name["lead_off"].to_numpy().dtype == np.bool_
    assert by_name["notes"].to_numpy().dtype == object
    hr = by_name["heart_rate"].to_numpy()
    assert isinstance(hr, np.ma.MaskedArray) and hr.dtype == np.float64
    assert [int(i) for i in np.flatnonzero(hr.mask)] == [3, 17, 29]
    assert np.isnan(hr.data[11]) and not hr.mask[11]  # NaN is a value, not a null


def test_to_numpy_shares_the_decoded_buffer(reader):
    record = next(iter(reader.iter_records(load=timef.LoadPlan.ALL_EAGER)))
    signal = record.signals[0]
    assert signal.is_loaded
    a, b = signal.to_numpy(), signal.to_numpy()
    pointer = a.__array_interface__["data"][0]
    assert pointer == b.__array_interface__["data"][0]  # one buffer, no copy per call
    assert not a.flags.writeable and not a.flags.owndata


def test_read_steps_and_offsets(reader):
    ds = reader.read()
    by_name = {s.name: s for r in ds.records for s in r.signals}
    lead = by_name["lead_I"]
    before = reader.counters()["data_pages_decoded"]
    window = lead.read_steps(100, 110)
    assert window.shape == (10,)
    assert reader.counters()["data_pages_decoded"] - before >= 1
    assert isinstance(reader.counters()["data_pages_resumed"], int)  # exposed with the others
    np.testing.assert_array_equal(window, lead.to_numpy()[100:110])
    assert lead.read_steps(39990, 10**9).shape == (10,)  # end clamps to n_values
    with pytest.raises(timef.ValidationError):
        lead.read_steps(5, 2)
    hr = by_name["heart_rate"]
    offsets = hr.time_offsets_us()
    assert offsets.dtype == np.int64 and offsets.shape == (40,)
    assert offsets[0] == hr.axis.first_us and offsets[-1] == hr.axis.last_us
    regular = lead.time_offsets_us()
    assert regular[1] - regular[0] == 4000  # 250 Hz
    with pytest.raises(timef.ValidationError):
        by_name["notes"].time_offsets_us()


def test_lazy_until_asked(hello):
    with timef.TimeFReader.open(hello) as r:
        assert r.counters()["catalog_opens"] == 0
        records = list(r.iter_records())
        assert r.counters()["values_files_opened"] == 0
        assert r.counters()["chunks_read"] == 0
        records[0].signals[0].to_numpy()
        assert r.counters()["chunks_read"] >= 1


def test_iter_records_batches_and_order(reader):
    ids = reader.record_ids()
    assert [r.id for r in reader.iter_records(batch_size=1)] == ids
    assert [r.id for r in reader.iter_records(record_ids=[ids[2], ids[0]])] == [ids[2], ids[0]]
    assert list(reader.iter_records(record_ids=[])) == []
    with pytest.raises(timef.NotFoundError):
        next(reader.iter_records(record_ids=[ids[0], 9999]))


def test_get_and_get_many(reader):
    ds = reader.read()
    answer = next(t for t in ds.tasks if t.task_type == "answer")
    got = reader.get(timef.AnswerTask, answer.id)
    assert type(got) is timef.AnswerTask and isinstance(got, timef.Task)
    a, b = reader.get_many(timef.Record, [1, 1])
    assert a is b
    s = reader.get(timef.Signal, 3)
    assert s.id == 3 and s.record.id == 1 and s.source.record is s.record
    assert reader.get(timef.Record, np.int64(2)).id == 2
    with pytest.raises(timef.NotFoundError) as e:
        reader.get(timef.ClassificationTask, answer.id)
    assert isinstance(e.value, LookupError)
    with pytest.raises(timef.NotFoundError) as e:
        reader.get_many(timef.Record, [1, 97, 98])
    assert "97" in str(e.value) and "98" in str(e.value)
    with pytest.raises(timef.ValidationError):
        reader.get(timef.Source, 1)
    with pytest.raises(timef.ValidationError):
        reader.get(timef.Record, 0)


def test_lookups_by_id_are_the_same_without_the_catalog_row_cache(hello):
    import pickle
    with timef.TimeFReader.open(hello) as cached, \
            timef.TimeFReader.open(hello, catalog_cache_bytes=0) as uncached:
        ids = [r.id for r in cached.iter_records()]
        for rid in ids + ids:
            a, b = cached.get(timef.Record, rid), uncached.get(timef.Record, rid)
            assert [s.id for s in a.signals] == [s.id for s in b.signals]
            assert [s.n_values for s in a.signals] == [s.n_values for s in b.signals]
        assert cached.counters()["catalog_cache_loads"] > 0
        assert uncached.counters()["catalog_cache_loads"] == 0
        # The option survives pickling (a DataLoader worker's copy reopens with it).
        copy = pickle.loads(pickle.dumps(uncached))
        copy.get(timef.Record, ids[0])
        assert copy.counters()["catalog_cache_loads"] == 0


def test_load_values_decodes_a_batch_on_several_threads(hello):
    import pickle
    with timef.TimeFReader.open(hello) as one, \
            timef.TimeFReader.open(hello, decode_threads=3) as three:
        ids = [s.id for r in one.iter_records() for s in r.signals
               if one.signal_values(s.id).has_values]
        assert len(ids) > 3
        expected = [one.signal_values(i).to_numpy() for i in ids]
        for got in (one.load_values(ids), three.load_values(np.array(ids)),
                    pickle.loads(pickle.dumps(three)).load_values(ids)):
            assert len(got) == len(ids)
            for a, b in zip(got, expected):
                assert a.dtype == b.dtype
                if a.dtype == object:  # str values
                    assert a.tolist() == b.tolist()
                else:
                    assert a.tobytes() == b.tobytes()
        assert three.load_values([]) == []
        with pytest.raises(timef.NotFoundError) as e:
            three.load_values([ids[0], 9001])
        assert "9001" in str(e.value)


def test_load_values_in_any_order_and_writable(hello):
    # Decoded in storage order whatever the order asked for; writable=True hands each array its own
    # buffer, an ID given twice included (writing one changes no other array and no later read).
    with timef.TimeFReader.open(hello) as one, \
            timef.TimeFReader.open(hello, decode_threads=2) as two:
        ids = [s.id for r in one.iter_records() for s in r.signals
               if one.signal_values(s.id).has_values]
        asked = ids[::-1] + [ids[0], ids[0]]
        expected = [one.signal_values(i).to_numpy() for i in asked]
        assert not any(a.flags.writeable for a in one.load_values(asked)
                       if a.dtype != object)
        for reader in (one, two):
            got = reader.load_values(asked, writable=True)
            assert len(got) == len(asked)
            for a, b in zip(got, expected):
                assert a.dtype == b.dtype and a.flags.writeable
                if a.dtype == object:
                    assert a.tolist() == b.tolist()
                else:
                    assert a.tobytes() == b.tobytes()
            numeric = [k for k, a in enumerate(got) if a.dtype != object and a.size]
            if asked[-1] == asked[-2] and got[-1].dtype != object and got[-1].size:
                before = got[-2].tobytes()
                got[-1][...] = 1
                assert got[-2].tobytes() == before
            for k in numeric:
                got[k][...] = 0
            again = reader.load_values(asked)
            for k in numeric:
                assert again[k].tobytes() == expected[k].tobytes()
    for bad in (0, 257):
        with pytest.raises(timef.ValidationError) as e:
            timef.TimeFReader.open(hello, decode_threads=bad)
        assert "decode_threads" in str(e.value)


def test_load_values_into_fills_arrays_you_keep(hello):
    # Every non-str dtype of hello-world (bool, int8 ... uint32, float32 with special floats,
    # nullable float64, enum codes), one array per ID and rows of one padded 2-D array, both
    # bit-exact against load_values; nulls come back as validity 0.
    with timef.TimeFReader.open(hello, decode_threads=2) as reader:
        ids = [s.id for r in reader.iter_records() for s in r.signals
               if reader.signal_values(s.id).has_values and s.spec.dtype != "str"]
        expected = [reader.signal_values(i).to_numpy() for i in ids]
        data = [np.ma.getdata(e).reshape(-1) for e in expected]
        masks = [np.ma.getmaskarray(e).reshape(len(e), -1)[:, 0] for e in expected]
        assert {str(d.dtype) for d in data} >= {"bool", "int8", "int16", "int32", "uint8",
                                                 "uint16", "uint32", "float32", "float64"}
        assert any(m.any() for m in masks), "hello-world has null steps"
        outs = [np.full(d.shape, 7, dtype=d.dtype) for d in data]
        valid = [np.full(m.shape, 7, dtype=np.uint8) for m in masks]
        steps = reader.load_values_into(ids[::-1], outs[::-1], validity=valid[::-1])
        assert steps.tolist() == [len(m) for m in masks][::-1]
        for o, d, v, m in zip(outs, data, valid, masks):
            assert o.tobytes() == d.tobytes()
            assert v.tolist() == (~m).astype(np.uint8).tolist()
        # Rows of one 2-D array per dtype, wider than every signal: the tail stays as it was.
        for dtype in {d.dtype for d in data}:
            group = [k for k, d in enumerate(data) if d.dtype == dtype]
            width = max(len(data[k]) for k in group) + 3
            rows = np.zeros((len(group), width), dtype=dtype)
            vrows = np.zeros((len(group), width), dtype=bool)
            reader.load_values_into([ids[k] for k in group], rows, validity=vrows)
            for row, vrow, k in zip(rows, vrows, group):
                n = len(data[k])
                assert row[:n].tobytes() == data[k].tobytes() and not row[n:].any()
                assert vrow[:len(masks[k])].tolist() == (~masks[k]).tolist()
        # Refusals name the signal: wrong dtype, wrong size, nulls without validity, str.
        lead = next(k for k, d in enumerate(data) if d.dtype == np.float32)
        with pytest.raises(timef.ValidationError, match=f"signal {ids[lead]}"):
            reader.load_values_into([ids[lead]], [np.zeros(len(data[lead]), np.float64)])
        with pytest.raises(timef.ValidationError, match=f"signal {ids[lead]}"):
            reader.load_values_into([ids[lead]], [np.zeros(len(data[lead]) - 1, np.float32)])
        with pytest.raises(timef.ValidationError, match="a row holds"):
            reader.load_values_into([ids[lead]], np.zeros((1, 10), np.float32))
        with pytest.raises(timef.ValidationError, match="writable"):
            frozen = np.zeros(len(data[lead]), np.float32)
            frozen.flags.writeable = False
            reader.load_values_into([ids[lead]], [frozen])
        nullable = next(k for k, m in enumerate(masks) if m.any())
        with pytest.raises(timef.ValidationError, match="no validity buffer"):
            reader.load_values_into([ids[nullable]], [np.zeros_like(data[nullable])])
        text = next(s.id for r in reader.iter_records() for s in r.signals
                    if s.spec.dtype == "str" and reader.signal_values(s.id).has_values)
        with pytest.raises(timef.ValidationError, match="str values"):
            reader.load_values_into([text], [np.zeros(4, np.float32)])


def test_iter_values_reads_every_signal_once_in_storage_order(hello):
    with timef.TimeFReader.open(hello) as one, \
            timef.TimeFReader.open(hello, decode_threads=2) as two:
        ids = one.signal_ids()
        every = sorted(s.id for r in one.iter_records() for s in r.signals)
        assert sorted(ids) == every and len(set(ids)) == len(ids)
        # Grouped by record, records in read order.
        runs = []
        for i in ids:
            record = one.signal_values(i).record_id
            if not runs or runs[-1] != record:
                runs.append(record)
        assert runs == one.record_ids()
        for reader, batch_size in ((one, 1), (two, 3), (two, 10_000)):
            seen = []
            for batch, arrays in reader.iter_values(batch_size=batch_size):
                assert 0 < len(batch) <= batch_size and len(arrays) == len(batch)
                for i, got in zip(batch, arrays):
                    ref = one.signal_values(i)
                    if not ref.has_values:
                        assert got is None
                        continue
                    want = ref.to_numpy()
                    assert got.dtype == want.dtype
                    if got.dtype == object:
                        assert got.tolist() == want.tolist()
                    else:
                        assert got.tobytes() == want.tobytes()
                seen.extend(batch)
            assert seen == ids
        for bad in (0, -1, 2.5, True, "8"):
            with pytest.raises(timef.ValidationError) as e:
                one.iter_values(batch_size=bad)
            assert "batch_size" in str(e.value)


def test_tasks_share_input_records(reader):
    tasks = reader.read_tasks()
    by_id = {}
    for t in tasks:
        for r in t.inputs:
            assert by_id.setdefault(r.id, r) is r
    records = list(reader.iter_records())
    chosen = reader.read_tasks(inputs=[records[1]])
    assert chosen and all(any(r is records[1] for r in t.inputs) for t in chosen)
    assert {t.id for t in reader.read_tasks(inputs=[records[1].id])} == {t.id for t in chosen}
    assert reader.read_tasks(inputs=[]) == []
    assert {t.split for t in reader.read_tasks(split="test")} == {"test"}
    assert [t.id for t in reader.iter_tasks(batch_size=3)] == [t.id for t in tasks]
    derived = next(t for t in tasks if t.from_tasks)
    assert derived.from_tasks[0] is next(t for t in tasks if t.id == derived.from_tasks[0].id)


def test_tables(reader):
    tasks = reader.read_task_table()
    d = tasks.to_pydict()
    assert d["task_id"] == sorted(t.id for t in reader.read_tasks())
    targets = reader.read_target_table().to_pandas()
    inline = sum(len(t.targets) for t in reader.read_tasks() if t.targets)
    assert len(targets) == inline
    annotations = reader.read_annotation_table().to_pandas()
    assert len(annotations) > 0 and "object_id" in annotations.columns


def test_arrow_capsule_stream(reader):
    import ctypes
    table = reader.read_task_table()
    rows = table.num_rows
    capsule = table.__arrow_c_stream__()

    class Schema(ctypes.Structure):
        pass
    Schema._fields_ = [("format", ctypes.c_char_p), ("name", ctypes.c_char_p),
                       ("metadata", ctypes.c_char_p), ("flags", ctypes.c_int64),
                       ("n_children", ctypes.c_int64),
                       ("children", ctypes.POINTER(ctypes.POINTER(Schema))),
                       ("dictionary", ctypes.c_void_p), ("release", ctypes.c_void_p),
                       ("private_data", ctypes.c_void_p)]

    class Array(ctypes.Structure):
        _fields_ = [("length", ctypes.c_int64), ("null_count", ctypes.c_int64),
                    ("offset", ctypes.c_int64), ("n_buffers", ctypes.c_int64),
                    ("n_children", ctypes.c_int64), ("buffers", ctypes.c_void_p),
                    ("children", ctypes.c_void_p), ("dictionary", ctypes.c_void_p),
                    ("release", ctypes.c_void_p), ("private_data", ctypes.c_void_p)]

    class Stream(ctypes.Structure):
        pass
    GetSchema = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(Stream), ctypes.POINTER(Schema))
    GetNext = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(Stream), ctypes.POINTER(Array))
    Stream._fields_ = [("get_schema", GetSchema), ("get_next", GetNext),
                       ("get_last_error", ctypes.c_void_p), ("release", ctypes.c_void_p),
                       ("private_data", ctypes.c_void_p)]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    stream = ctypes.cast(get_pointer(capsule, b"arrow_array_stream"), ctypes.POINTER(Stream))
    schema = Schema()
    assert stream.contents.get_schema(stream, ctypes.byref(schema)) == 0
    assert schema.format == b"+s"
    names = [schema.children[i].contents.name.decode() for i in range(schema.n_children)]
    assert names[0] == "task_id"
    batch = Array()
    assert stream.contents.get_next(stream, ctypes.byref(batch)) == 0
    assert batch.length == rows
    end = Array()
    assert stream.contents.get_next(stream, ctypes.byref(end)) == 0 and not end.release
    release = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
    release(batch.release)(ctypes.addressof(batch))
    release(schema.release)(ctypes.addressof(schema))
    with pytest.raises(timef.ValidationError):
        table.to_pydict()  # the batch was handed over
    del capsule  # releases the stream


def test_manifest_verify_close(reader, hello):
    assert reader.manifest["dataset_id"] == "timef/hello-world"
    reader.verify()
    seen = []
    reader.verify(progress=lambda done, total: seen.append((done, total)))
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1] > 0
    reader.close()
    assert len(reader.record_ids()) == 4  # reopens after close


def test_open_by_ref(registry):
    with timef.open("timef/hello-world", root=registry) as r:  # the latest: the demo's edit
        assert r.manifest["metadata"]["dataset_version"] == "1.1.0"
    with timef.open("timef/hello-world@1.0.0", root=registry) as r:
        assert len(r.record_ids()) == 4
    with pytest.raises(timef.NotFoundError):
        timef.open("timef/nothing", root=registry)
