"""The claim registry: what a claim is, what a verdict is, and how claims are found and run.

A claim is one statement of docs/claims.md (or a user's own) with a function that checks it and
returns a :class:`ClaimResult`: a verdict (verified / refuted / open), the provenance of what was
checked (e.g. "derived, under reconstructed Theorem 4.1"), a one-line evidence and a details dict
with the numbers and the symbolic witness. A refuted claim is a result; only an exception is a crash.

Claim files are code: importing one runs it with your permissions, so pass ``--claims-dir`` only for
folders you trust. A claim that raises or calls ``sys.exit`` is reported as crashed, with its message,
and the other claims still run.

Adding a claim of your own takes one file. Put a module in ``paper_checks/claims/`` (it runs with the
rest) or in any folder passed as ``specbound check --claims-dir DIR``; it must define ``CLAIM``::

    # my_claims/c13_trace.py
    from paper_checks.registry import Claim, ClaimResult, Verdict

    def check(context, threshold: float = 1.0) -> ClaimResult:
        report = context.report("minilm-l6")            # shared, computed once per run
        holds = report.ours > threshold
        return ClaimResult("13", "B_ours exceeds 1 on minilm-l6",
                           Verdict.VERIFIED if holds else Verdict.REFUTED,
                           "exact (authors' proxy)", f"B_ours = {report.ours}")

    CLAIM = Claim("13", "B_ours exceeds 1 on minilm-l6", check)

The ``context`` is a :class:`paper_checks.context.RunContext`: models are loaded, proxies computed and
synthetic models trained once per run and shared between claims.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
import sys
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from theory.errors import InvalidArgument, missing_dependency

if TYPE_CHECKING:
    from paper_checks.context import RunContext


class Verdict(StrEnum):
    """What a check concluded about its claim under the stated provenance."""

    VERIFIED = "verified"
    REFUTED = "refuted"
    OPEN = "open"
    BY_CONSTRUCTION = "by construction"
    """The statement holds on the run's data, but the check could not have come out otherwise there (not
    counted as verified); the evidence says why."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ClaimResult:
    """The outcome of checking one claim.

    ``provenance`` says what was checked and under which reading (never "the paper's theorem" for a
    reconstruction); ``evidence`` is one line a reader can act on; ``details`` holds the numbers and
    witnesses (JSON-serialisable); ``figures`` the paths of figures drawn for it; ``error`` is set only
    when the check crashed.
    """

    id: str
    title: str
    verdict: Verdict
    provenance: str
    evidence: str
    details: Mapping[str, Any] = field(default_factory=dict)
    figures: tuple[str, ...] = ()
    error: str | None = None

    @property
    def crashed(self) -> bool:
        """True when the check raised instead of reaching a verdict."""
        return self.error is not None

    def to_json(self) -> dict[str, Any]:
        """The documented layout ``{"id", "title", "verdict", "provenance", "evidence"}`` plus details."""
        out: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "verdict": self.verdict.value,
            "provenance": self.provenance,
            "evidence": self.evidence,
            "details": jsonable(self.details),
        }
        if self.figures:
            out["figures"] = list(self.figures)
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass(frozen=True)
class Claim:
    """A checkable statement: its id, its title and the function that checks it on a run context."""

    id: str
    title: str
    run: Callable[[RunContext], ClaimResult]


def jsonable(value: Any) -> Any:
    """``value`` with numbers made plain floats/ints/strings so ``json.dumps`` accepts it.

    Non-finite floats become strings ("inf") so no JSON output ever carries a bare inf or nan.

    >>> jsonable({"a": (1, 2.5), "b": float("inf")})
    {'a': [1, 2.5], 'b': 'inf'}
    """
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value if value == value and abs(value) != float("inf") else str(value)
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return str(value)
    if number != number or abs(number) == float("inf"):
        return str(value)
    return number


def _id_key(claim_id: str) -> tuple[int, str]:
    match = re.match(r"\d+", claim_id)
    return (int(match.group()) if match else 10**9, claim_id)


def _claim_of(module: ModuleType, where: str) -> Claim:
    claim = getattr(module, "CLAIM", None)
    if not isinstance(claim, Claim):
        raise InvalidArgument(
            f"claim module {where} defines no CLAIM = paper_checks.registry.Claim(id, title, check); add one"
        )
    return claim


def _load_file(path: Path) -> ModuleType:
    name = f"specbound_user_claims.{path.stem}_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InvalidArgument(f"claim file {path} cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_FILE_ID = re.compile(r"^c?0*(\d+)_")
"""A claim file named ``c13_...py`` (or ``13_...py``) holds claim 13: with ``--only`` it is imported
only when 13 is selected."""


def _file_id(path: Path) -> str | None:
    match = _FILE_ID.match(path.name)
    return match.group(1) if match else None


def _user_claim(path: Path) -> Claim:
    """The claim a user's file defines; a file that fails to import (a syntax error, an exception,
    ``sys.exit``) becomes a claim that reports the failure as its crash, so the other claims still run."""
    try:
        module = _load_file(path)
    except (Exception, SystemExit) as error:
        claim_id = _file_id(path) or path.stem
        summary = _failure(error)

        def crashed(context: RunContext) -> ClaimResult:
            raise ClaimFileError(f"claim file {path} failed to import: {summary}")

        return Claim(claim_id, f"the claim of {path.name}", crashed)
    return _claim_of(module, str(path))


class ClaimFileError(RuntimeError):
    """A user's claim file could not be imported (reported as that claim's crash)."""


def _failure(error: BaseException) -> str:
    """One line describing an exception or a ``sys.exit`` call."""
    if isinstance(error, SystemExit):
        return f"called sys.exit({error.code!r})"
    if isinstance(error, SyntaxError):
        return f"SyntaxError: {error.msg} (line {error.lineno})"
    error = missing_dependency(error) or error  # an optional package: name it and the extra to install
    return f"{type(error).__name__}: {error}"


def discover(claims_dirs: Iterable[str | Path] = (), only: str | None = None) -> tuple[Claim, ...]:
    """Every claim: the modules of :mod:`paper_checks.claims`, then each ``*.py`` of ``claims_dirs``.

    Claim files are Python code and importing one runs it. Files and modules whose name starts with
    ``_`` are helpers, never imported here. With ``only`` (the ``--only`` ids), a user file whose name
    carries an id (``c13_name.py``) is imported only when that id is selected. Claims are sorted by
    numeric id; two claims with the same id are an error.
    """
    wanted = None if only is None else {part.strip() for part in only.split(",") if part.strip()}
    import paper_checks.claims as package

    found: list[Claim] = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            module = importlib.import_module(f"paper_checks.claims.{info.name}")
            found.append(_claim_of(module, f"paper_checks.claims.{info.name}"))
    for directory in map(Path, claims_dirs):
        if not directory.is_dir():
            raise InvalidArgument(f"--claims-dir {directory} is not a directory of claim modules (*.py)")
        for path in sorted(directory.glob("*.py")):
            file_id = _file_id(path)
            if path.name.startswith("_") or (
                wanted is not None and file_id is not None and file_id not in wanted
            ):
                continue
            found.append(_user_claim(path))
    seen: dict[str, Claim] = {}
    for claim in found:
        if claim.id in seen:
            first = seen[claim.id].title
            raise InvalidArgument(f"two claims have id {claim.id!r}: {first!r} and {claim.title!r}")
        seen[claim.id] = claim
    return tuple(sorted(found, key=lambda c: _id_key(c.id)))


def selected(only: str | None, claim_id: str) -> bool:
    """Whether the comma-separated list ``only`` (None: every claim) selects ``claim_id``."""
    return only is None or any(_selects(part.strip(), claim_id) for part in only.split(",") if part.strip())


def select(claims: Sequence[Claim], only: str | None) -> tuple[Claim, ...]:
    """The claims whose ids are in the comma-separated list ``only`` (all when None)."""
    if only is None:
        return tuple(claims)
    wanted = [part.strip() for part in only.split(",") if part.strip()]
    unknown = [w for w in wanted if not any(_selects(w, c.id) for c in claims)]
    if unknown or not wanted:
        raise InvalidArgument(
            f"--only {only!r} names unknown claim ids {unknown}; known ids: {', '.join(c.id for c in claims)}"
        )
    return tuple(c for c in claims if any(_selects(w, c.id) for w in wanted))


def _selects(wanted: str, claim_id: str) -> bool:
    """``wanted`` names ``claim_id`` exactly, or its family: "8" selects the sub-claims "8a", "8b", ..."""
    return claim_id == wanted or (wanted.isdigit() and re.fullmatch(rf"{wanted}[a-z]", claim_id) is not None)


def run_claim(claim: Claim, context: RunContext) -> ClaimResult:
    """Run one claim; an exception becomes a crashed result (verdict open, ``error`` set)."""
    try:
        result = claim.run(context)
    except (Exception, SystemExit) as error:  # a claim calling sys.exit must not end the whole run
        summary = str(error) if isinstance(error, ClaimFileError) else _failure(error)
        return ClaimResult(
            claim.id,
            claim.title,
            Verdict.OPEN,
            "none: the check crashed",
            f"crashed: {summary}",
            {"traceback": traceback.format_exc()},
            error=summary,
        )
    if not isinstance(result, ClaimResult):
        return ClaimResult(
            claim.id,
            claim.title,
            Verdict.OPEN,
            "none: the check crashed",
            f"crashed: check returned {type(result).__name__}, not a ClaimResult",
            error=f"check returned {type(result).__name__}",
        )
    return result
