"""Values from Python go through one checked conversion (docs/format.md §14.1 "Value
conversions", docs/python.md): a conversion that changes a value's meaning, or an array of the
wrong shape, is a ValidationError naming the signal and the first offending step. Whole arrays,
loaders and generator pieces alike."""

import warnings

import numpy as np
import pytest
import timef

AXIS = timef.TimeAxis.ordinal()


def signal(values, dtype, **spec):
    return timef.Signal("lead", timef.Spec("x", dtype=dtype, **spec), AXIS, values)


def refused(values, dtype, where, text, **spec):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's own overflow warning is not the answer
        with pytest.raises(timef.ValidationError, match=text) as info:
            signal(values, dtype, **spec)
    assert "signal 'lead'" in str(info.value)
    assert info.value.where == where
    return info.value


def test_finite_to_infinite_is_refused():
    refused(np.array([1.0, 1e300]), "float32", "values[1]", r"step 1: 1e\+300 is too large")
    refused(np.array([-1e300]), "float32", "values[0]", "-inf")


def test_rounding_float64_to_float32_is_not_an_error():
    back = signal(np.array([0.1, np.nan, np.inf, -0.0]), "float32").to_numpy()
    assert back.dtype == np.float32 and back[0] == np.float32(0.1)
    assert np.isnan(back[1]) and np.isinf(back[2]) and np.signbit(back[3])


def test_fractional_floats_into_integers_are_refused():
    refused(np.array([1.0, 2.5]), "int16", "values[1]", "step 1: 2.5 is fractional")
    refused(np.array([np.nan]), "int32", "values[0]", "NaN has no int32 value")
    refused([0.0, np.inf], "uint8", "values[1]", "infinity")
    assert signal(np.array([-3.0, 4.0]), "int8").to_numpy().tolist() == [-3, 4]


def test_integers_out_of_range_are_refused():
    refused([300, -1000], "int8", "values[0]", "300 is outside the range of int8")
    refused(np.array([1, -1000]), "int8", "values[1]", "-1000")
    refused([-1, 70000], "uint16", "values[0]", "-1 is outside the range of uint16")
    refused(np.array([5, 70000], dtype=np.int64), "uint16", "values[1]", "70000")
    refused(np.array([3e9]), "int32", "values[0]", "outside the range of int32")
    refused(np.array([3_000_000_000]), "int32", "values[0]", "3000000000")
    refused(np.array([2**64 - 1], dtype=np.uint64), "uint32", "values[0]", "18446744073709551615")
    refused([0, 2], "bool", "values[1]", "a bool value is 0 or 1")
    assert signal(np.array([255], dtype=np.int64), "uint8").to_numpy().tolist() == [255]
    assert signal([1, 0], "bool").to_numpy().tolist() == [True, False]


def test_enum_codes_out_of_range_are_refused():
    cats = {"categories": ["AF", "NORM"]}
    # 2**32 + 1 would wrap to the valid code 1 in an int32.
    refused(np.array([0, 2**32 + 1]), "enum", "values[1]", "4294967297 is outside the 2 categories",
            **cats)
    refused(np.array([-1]), "enum", "values[0]", "categories", **cats)
    refused(np.array([0.0, 1.0]), "enum", "values", "labels \\(str\\) or integer codes", **cats)
    assert signal(np.array([1, 0], dtype=np.uint8), "enum", **cats).to_numpy().tolist() == [1, 0]


def test_a_shape_other_than_steps_by_value_shape_is_refused():
    refused(np.zeros((4, 1)), "float32", "values", r"shape \(4, 1\).*\[n_values\]")
    refused(np.float64(1.0), "float64", "values", r"shape \(\)")
    refused(np.zeros((2, 3)), "float32", "values", r"\[n_values, 2\]", value_shape=[2])
    refused(np.zeros(6), "float32", "values", r"shape \(6,\)", value_shape=[2])
    refused([["a"], ["b"]], "str", "values", r"shape \(2, 1\)")
    assert signal(np.zeros((3, 2)), "float32", value_shape=[2]).n_values == 3


def test_masked_nulls_are_not_checked_and_numpy_byte_order_is_read_right():
    values = np.ma.masked_array([1.0, 1e300, 7.0], mask=[0, 1, 0])
    back = signal(values, "int8", nullable=True).to_numpy()
    assert back.filled(0).tolist() == [1, 0, 7] and back.mask.tolist() == [False, True, False]
    swapped = np.array([1.5, -2.0], dtype=">f8")
    assert signal(swapped, "float64").to_numpy().tolist() == [1.5, -2.0]
    refused(np.array([1e300], dtype=np.longdouble), "float32", "values[0]", "too large")


def test_non_numbers_for_a_numeric_spec_are_refused():
    refused(np.array(["1.5"]), "float32", "values", "expected numbers for the float32 spec")


def test_loaders_and_pieces_go_through_the_same_check(tmp_path):
    card = {"name": "c", "description": "d", "license": "CC0-1.0"}

    def write(values):
        ds = timef.Dataset("tests/py-conv", "1.0.0")
        src = ds.add_record().add_source("s")
        src.add_signal(timef.Signal("lead", timef.Spec("x", dtype="int8"), AXIS, values,
                                    n_values=6))
        return timef.write(ds, tmp_path / "out", card=card)

    with pytest.raises(timef.ValidationError, match="step 4: 300") as info:
        write(lambda: np.array([0, 1, 2, 3, 300, 5]))
    assert info.value.where == "values[4]"

    def pieces():
        yield np.array([0, 1, 2])
        yield np.array([3, 4.5, 5])
    with pytest.raises(timef.ValidationError, match="step 4: 4.5 is fractional") as info:
        write(pieces)
    assert info.value.where == "values[4]"

    def wide():
        yield np.zeros((6, 1))
    with pytest.raises(timef.ValidationError, match=r"shape \(6, 1\)"):
        write(wide)
    assert not (tmp_path / "out" / "tests" / "py-conv" / "1.0.0").exists()  # nothing published
