"""theory.records against the reference it replaces: the same class as ``dataclass(frozen=True, ...)``."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import FrozenInstanceError, field

import pytest

from theory.records import record


def _sample(name, decorate):
    """One class body, named ``name`` (a module attribute, for pickle) and decorated by ``decorate``:
    positional, defaulted, factory, hidden and kw-only fields, and a __post_init__ that derives a field."""

    class Sample:
        """A sample record."""

        name: str
        count: int = 2
        tags: list[str] = field(default_factory=list, compare=False)
        secret: str = field(default="s", repr=False)
        weight: float = field(default=1.0, kw_only=True)
        doubled: int = field(default=0, init=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "doubled", 2 * self.count)

    Sample.__name__ = Sample.__qualname__ = name
    return decorate(Sample)


REFERENCE = _sample("REFERENCE", dataclasses.dataclass(frozen=True))
RECORD = _sample("RECORD", record)
CALLS = [(("a",), {}), (("a", 3), {"weight": 0.5}), ((), {"name": "b", "tags": ["x"], "secret": "t"})]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_a_record_behaves_as_the_frozen_dataclass(args, kwargs):
    ours, theirs = RECORD(*args, **kwargs), REFERENCE(*args, **kwargs)
    assert repr(ours) == repr(theirs).replace("REFERENCE", "RECORD", 1)
    assert dataclasses.asdict(ours) == dataclasses.asdict(theirs)
    assert (ours == RECORD(*args, **kwargs)) and hash(ours) == hash(theirs)
    assert ours == dataclasses.replace(ours, tags=["other"])  # tags is not compared
    assert ours != dataclasses.replace(ours, count=7) and dataclasses.replace(ours, count=7).doubled == 14
    assert ours != theirs  # another class: never equal, as two dataclasses of different classes
    assert pickle.loads(pickle.dumps(ours)) == ours and copy.deepcopy(ours) == ours
    assert RECORD.__match_args__ == REFERENCE.__match_args__
    assert [f.name for f in dataclasses.fields(ours)] == [f.name for f in dataclasses.fields(theirs)]


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((), {}), (("a", 1, [], "s", 2.0), {}), (("a",), {"name": "b"}), (("a",), {"doubled": 1})],
    ids=["missing", "too-many", "twice", "not-init"],
)
def test_a_bad_call_is_a_type_error_as_for_the_dataclass(args, kwargs):
    with pytest.raises(TypeError):
        REFERENCE(*args, **kwargs)
    with pytest.raises(TypeError):
        RECORD(*args, **kwargs)


@pytest.mark.parametrize("name", ["name", "doubled", "new_attribute"])
def test_assignment_and_deletion_are_refused(name):
    ours = RECORD("a")
    with pytest.raises(FrozenInstanceError):
        setattr(ours, name, 1)
    with pytest.raises(FrozenInstanceError):
        delattr(ours, name)
    assert ours == RECORD("a")


def test_eq_false_keeps_identity_equality_and_hash():
    @record(eq=False)
    class Loose:
        value: int

    one = Loose(1)
    assert one != Loose(1) and one == one and hash(one) == object.__hash__(one)


def test_a_class_s_own_methods_are_kept():
    @record
    class Custom:
        value: int

        def __repr__(self) -> str:
            return "custom"

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Custom)

        __hash__ = object.__hash__

    assert repr(Custom(1)) == "custom" and Custom(1) == Custom(2)


def test_a_class_that_defines_setattr_is_refused_as_dataclasses_refuses_it():
    class Mutable:
        value: int

        def __setattr__(self, name: str, value: object) -> None:
            object.__setattr__(self, name, value)

    with pytest.raises(TypeError):
        dataclasses.dataclass(frozen=True)(Mutable)
    with pytest.raises(TypeError, match="defines __setattr__"):
        record(Mutable)


def test_kw_only_records_take_keywords_only():
    @record(kw_only=True)
    class Options:
        dps: int = 30
        grid: int = 16

    assert Options(grid=8) == Options(dps=30, grid=8)
    with pytest.raises(TypeError):
        Options(30)  # type: ignore[misc]
