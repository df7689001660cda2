"""Frozen records: :func:`dataclasses.dataclass` (frozen) semantics from shared functions.

``@record`` (or ``@record(eq=False, kw_only=True)``) gives a class what ``@dataclass(frozen=True, ...)``
gives it (fields with their defaults, ``field(...)`` options and ``__post_init__``; ``__init__``,
``__repr__``, ``__eq__`` and ``__hash__`` over the same fields; assignment and deletion refused with
:class:`dataclasses.FrozenInstanceError`; ``dataclasses.fields``, ``replace``, ``asdict`` and pickling), but
its methods are closures over the field list instead of source text the standard library compiles for each
class at import (about 2,000 characters per record, most of the start-up cost of a record). The values that
flow through ``specbound bound`` are records, so that its start-up pays for none of that compilation.

>>> @record
... class Pair:
...     left: int
...     right: int = 0
>>> Pair(1), Pair(1) == Pair(1, 0), hash(Pair(1)) == hash(Pair(1, 0))
(Pair(left=1, right=0), True, True)
>>> Pair(1).left = 2
Traceback (most recent call last):
dataclasses.FrozenInstanceError: cannot assign to field 'left'
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from typing import Any, TypeVar, cast, dataclass_transform, overload

_Class = TypeVar("_Class", bound=type)


@overload
def record(cls: _Class, /) -> _Class: ...


@overload
def record(*, eq: bool = True, kw_only: bool = False) -> Callable[[_Class], _Class]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: Any = None, /, *, eq: bool = True, kw_only: bool = False) -> Any:
    """``cls`` as a frozen dataclass (``eq``, ``kw_only`` as :func:`dataclasses.dataclass` takes them)."""

    def wrap(cls: _Class) -> _Class:
        fields_only = dataclasses.dataclass(init=False, repr=False, eq=False, kw_only=kw_only)
        return _install(cast(_Class, fields_only(cls)), eq)

    return wrap if cls is None else wrap(cls)


def _install(cls: _Class, eq: bool) -> _Class:
    """Set the methods ``cls`` does not define itself (dataclasses' rule), and refuse assignment."""
    fields = dataclasses.fields(cls)
    methods: dict[str, Any] = {"__init__": _initializer(cls, fields), "__repr__": _representation(fields)}
    if eq:
        methods["__eq__"] = _equality(tuple(f.name for f in fields if f.compare))
        explicit_hash = cls.__dict__.get("__hash__", dataclasses.MISSING) not in (dataclasses.MISSING, None)
        if not explicit_hash:
            hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
            methods["__hash__"] = _hash(hashed)
    for name, method in methods.items():
        if name not in cls.__dict__ or (name == "__hash__" and cls.__dict__[name] is None):
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    names = frozenset(f.name for f in fields)
    for name, method in (
        ("__setattr__", _refuse_assignment(cls, names)),
        ("__delattr__", _refuse_deletion(cls, names)),
    ):
        if name in cls.__dict__:
            raise TypeError(f"{cls.__qualname__} defines {name}; a record refuses assignment itself")
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)
    return cls


def _initializer(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    """``__init__(self, *positional, **keywords)``: the init fields in order (keyword-only ones by name),
    each from its argument, its default or its default factory; then the non-init fields with a default;
    then ``__post_init__``."""
    init = [f for f in fields if f.init]
    positional = tuple(f.name for f in init if not f.kw_only)
    accepted = frozenset(f.name for f in init)
    defaults = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    factories = {f.name: f.default_factory for f in fields if f.default_factory is not dataclasses.MISSING}
    later = tuple(f.name for f in fields if not f.init and f.name in defaults.keys() | factories.keys())
    post_init = getattr(cls, "__post_init__", None)
    set_field = object.__setattr__
    name = cls.__qualname__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(positional):
            raise TypeError(
                f"{name}() takes {len(positional)} positional arguments but {len(args)} were given"
            )
        values = dict(zip(positional, args, strict=False))
        for key, value in kwargs.items():
            if key not in accepted:
                raise TypeError(f"{name}() got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{name}() got multiple values for argument {key!r}")
            values[key] = value
        for field in init:
            key = field.name
            if key in values:
                set_field(self, key, values[key])
            elif key in defaults:
                set_field(self, key, defaults[key])
            elif key in factories:
                set_field(self, key, factories[key]())
            else:
                raise TypeError(f"{name}() missing required argument: {key!r}")
        for key in later:
            set_field(self, key, defaults[key] if key in defaults else factories[key]())
        if post_init is not None:
            post_init(self)

    return __init__


def _representation(fields: tuple[dataclasses.Field[Any], ...]) -> Callable[[Any], str]:
    """``Name(field=value!r, ...)`` over the fields with ``repr=True`` ("..." where a record contains
    itself)."""
    shown = tuple(f.name for f in fields if f.repr)

    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{key}={getattr(self, key)!r}" for key in shown)
        return f"{self.__class__.__qualname__}({inner})"

    return __repr__


def _values(self: Any, names: tuple[str, ...]) -> tuple[Any, ...]:
    """The values of the fields ``names`` of ``self``, in order."""
    return tuple(getattr(self, key) for key in names)


def _equality(names: tuple[str, ...]) -> Callable[[Any, Any], Any]:
    """``__eq__``: same class and equal compared fields (NotImplemented for another class)."""

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self, names) == _values(other, names)

    return __eq__


def _hash(names: tuple[str, ...]) -> Callable[[Any], int]:
    """``__hash__``: the hash of the tuple of the hashed fields."""

    def __hash__(self: Any) -> int:
        return hash(_values(self, names))

    return __hash__


def _refuse_assignment(cls: type[Any], names: frozenset[str]) -> Callable[[Any, str, Any], None]:
    """``__setattr__``: FrozenInstanceError for a field, or any name on ``cls`` itself."""

    def __setattr__(self: Any, key: str, value: Any) -> None:
        if type(self) is cls or key in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {key!r}")
        super(cls, self).__setattr__(key, value)

    return __setattr__


def _refuse_deletion(cls: type[Any], names: frozenset[str]) -> Callable[[Any, str], None]:
    """``__delattr__``: FrozenInstanceError for a field, or any name on ``cls`` itself."""

    def __delattr__(self: Any, key: str) -> None:
        if type(self) is cls or key in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {key!r}")
        super(cls, self).__delattr__(key)

    return __delattr__
