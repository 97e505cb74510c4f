"""Text handles: the seed's semantics, checked rule by rule (reads counted by the reader)."""

import pytest
import timef


def reads(reader):
    return reader.counters()["payload_values_read"]


def packed_prompt_task(reader):
    return next(t for t in reader.read_tasks() if t.prompt is not None and not t.prompt.is_loaded)


def test_read_returns_the_string_and_keeps_nothing(reader):
    task = packed_prompt_task(reader)
    before = reads(reader)
    text = task.prompt.read()
    assert isinstance(text, str) and len(text.encode()) == len(task.prompt)
    assert reads(reader) == before + 1
    # The handle keeps nothing: the next read is served by the reader (its decoded-payload
    # cache), and after close() drops that cache, it reads the payload file again.
    assert task.prompt.read() == text and not task.prompt.is_loaded
    reader.close()
    assert task.prompt.read() == text
    assert reads(reader) == before + 2


def test_len_and_truthiness_never_read(reader):
    tasks = reader.read_tasks()
    before = reads(reader)
    task = packed_prompt_task(reader)
    assert len(task.prompt) > 256 and bool(task.prompt)
    empty = next(t for t in tasks if t.prompt is not None and len(t.prompt) == 0)
    assert not empty.prompt and empty.prompt is not None and empty.prompt.read() == ""
    absent = next(t for t in tasks if t.prompt is None)
    assert absent.prompt is None
    assert reads(reader) == before


def test_equality_rules(reader, hello):
    task = packed_prompt_task(reader)
    value = task.prompt.read()
    assert task.prompt == value and not (task.prompt != value)
    assert task.prompt != value + "x"
    assert task.prompt == task.prompt
    before = reads(reader)
    assert task.prompt != "short"  # different length: no read
    assert reads(reader) == before
    with timef.TimeFReader.open(hello) as other:
        again = other.get(type(task), task.id)
        before_other = reads(other)
        assert again.prompt == task.prompt  # same stored row: equal without a read
        assert reads(reader) == before and reads(other) == before_other
    inline = timef.TextHandle(value)
    assert inline == task.prompt and inline.is_loaded
    assert timef.TextHandle("ab") != timef.TextHandle("abc")


def test_kinds_never_equal_and_handles_not_hashable(reader):
    ds = reader.read()
    keywords = next(a for a in ds.annotations if a.key == "keywords").value
    assert isinstance(keywords, timef.TextListHandle) and not keywords.is_loaded
    words = keywords.read()
    assert keywords == words and len(keywords) == len(words) and keywords
    assert keywords != tuple(words) and keywords != ",".join(words)
    text = timef.TextHandle(words[0])
    assert text != [words[0]] and timef.TextListHandle([words[0]]) != words[0]
    assert text != timef.TextListHandle([words[0]]) and timef.TextListHandle([words[0]]) != text
    for handle in (text, keywords):
        with pytest.raises(TypeError):
            hash(handle)
        with pytest.raises(TypeError):
            {handle}


def test_eager_text_plan_loads(reader):
    tasks = reader.read_tasks(load=timef.LoadPlan(text=timef.Loading.EAGER))
    assert all(t.prompt.is_loaded for t in tasks if t.prompt is not None)
    before = reads(reader)
    [t.prompt.read() for t in tasks if t.prompt is not None]
    assert reads(reader) == before


def test_read_value_and_read_values(reader):
    task = packed_prompt_task(reader)
    assert timef.read_value(task.prompt) == task.prompt.read()
    assert timef.read_value(3) == 3 and timef.read_value(None) is None
    classification = next(t for t in reader.read_tasks() if t.task_type == "classification")
    assert timef.read_values(classification.targets) == ("af",)
    assert timef.read_values(None) is None
    assert timef.read_value(timef.TextListHandle(["a", "b"])) == ["a", "b"]
