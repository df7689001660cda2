"""Deciding a derivation: every step of the chain proved, refuted with a witness, or left undecided.

- an identity E_{i-1} = E_i: sympy's normal form of the difference must reach 0
  (:func:`theory.prover.chain.identically_zero`, not a sampled check); it is *proved* when the kernel's own
  exact ring normal form also reaches 0, else *derived* (sympy only). When sympy's form does not reach 0, a
  probe point where the difference's ball excludes 0 refutes it;
- an inequality: on a real half-line [a, oo) of one variable, without other assumptions than bounds,
  first one kernel certificate by the crossover's tail methods
  (:func:`theory.derive.half_line.half_line_certificate`); else the prover
  (:func:`theory.prover.search.search`) over the domain cut by the step's bound assumptions
  (x <= 3, N >= 3), with its other assumptions, proved lemmas and earlier derivations entering as
  Max(g, -a_1, ...) (:func:`theory.derive.check.step_gap_tree`); a refutation's witness is a point
  where every assumption holds and the step fails;
- a step that uses an unproved lemma or derivation is decided under it but reported undecided ("depends on
  the unproved ...").

The chain's verdict: refuted at the first refuted step, else undecided if a step is, else derived if an
identity is sympy's only, else proved; a proved or derived chain has a certificate
(:mod:`theory.derive.check` re-checks it). Provenance: derived (decided by the code).
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy as sp

from theory.derive.by_fact import FACT, Fact, decide_by_fact, given_fact, piece_fact
from theory.derive.check import (
    DERIVATION_FORMAT,
    EXACT,
    PROVER,
    SYMPY,
    compose,
    cut,
    exact_zero,
    gap_inequality,
    step_gap_tree,
)
from theory.derive.facts import NO_FACTS, Facts
from theory.derive.file_format import (
    FILE_PREFIX,
    LEMMA_PREFIX,
    PIECE_PREFIX,
    Assumption,
    DerivationFile,
    FactUse,
    MalformedDerivation,
    Step,
    read_derivation,
)
from theory.derive.instance import defined_on, difference_tree
from theory.prover.box import count_of_boxes
from theory.prover.certificate import domain_data, domain_of
from theory.prover.chain import ChainResult
from theory.prover.cpu_budget import GRACE, OutOfBudget, cpu_limit, paused
from theory.prover.domain import Domain, MalformedDomain
from theory.prover.language import from_tree, to_tree
from theory.prover.result import PROVED, REFUTED, UNDECIDED, ProofResult, Witness
from theory.prover.statement import Inequality

DERIVED = "derived"
DEFAULT_STEP_BUDGET = 20.0
"""CPU seconds the prover may spend on one inequality step."""


@dataclass(frozen=True)
class StepResult:
    """One step's verdict with its evidence; ``record`` is its part of the derivation certificate."""

    step: Step
    status: str
    method: str
    seconds: float
    boxes: int = 0
    witness: Witness | None = None
    remaining: int = 0
    reason: str = ""
    record: dict[str, Any] | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        """{"name", "line", "relation", "status", "method", "seconds", "boxes", "witness"?, "reason"?}."""
        result: dict[str, Any] = {
            "name": self.step.name,
            "line": self.step.line,
            "relation": self.step.relation,
            "to": self.step.text,
            "status": self.status,
            "method": self.method,
            "seconds": round(self.seconds, 3),
            "boxes": self.boxes,
            "uses": list(self.step.uses),
        }
        if self.witness is not None:
            result["witness"] = self.witness.to_json()
        if self.remaining:
            result["remaining_boxes"] = self.remaining
        if self.reason:
            result["reason"] = self.reason
        return result


@dataclass(frozen=True)
class DerivationResult:
    """The verdict on a derivation file: per step, and for the chain E0 relation E_n."""

    derivation: DerivationFile
    steps: tuple[StepResult, ...]
    seconds: float
    inputs: tuple[Path, ...] = ()
    """Every file read (resolved): the derivation and each file it references, at any depth."""
    referenced: tuple[tuple[str, DerivationResult], ...] = ()
    """Each file it references, at any depth, once: (its key, the path from this file's folder; its
    result)."""

    @property
    def relation(self) -> str:
        """The conclusion's relation (the steps' composition)."""
        return compose([s.relation for s in self.derivation.steps])

    @property
    def conclusion(self) -> str:
        """E0 relation E_n, as sympy prints it."""
        first, last = self.derivation.steps[0].lhs, self.derivation.steps[-1].rhs
        return f"{sp.sstr(first)} {self.relation} {sp.sstr(last)}"

    @property
    def status(self) -> str:
        """refuted / undecided / derived / proved (module docstring)."""
        statuses = [s.status for s in self.steps]
        for word in (REFUTED, UNDECIDED, DERIVED):
            if word in statuses:
                return word
        return PROVED

    @property
    def first_failure(self) -> StepResult | None:
        """The first refuted step."""
        return next((s for s in self.steps if s.status == REFUTED), None)

    @property
    def hypotheses(self) -> tuple[str, ...]:
        """The named assumptions the conclusion is conditional on."""
        used = [(*s.uses, *((s.by.name,) if s.by else ())) for s in self.derivation.steps]
        names = {u for uses in used for u in uses if u in self.derivation.assumptions}
        return tuple(sorted(names))

    def certificate(self) -> dict[str, Any] | None:
        """The derivation certificate (proved or derived chains only), with the certificate of each file
        it references, at any depth, once in its "files" table (a step refers to it by its key)."""
        if self.status not in (PROVED, DERIVED):
            return None
        certificate = self._own_certificate()
        files = {key: result._own_certificate() for key, result in self.referenced}
        return {**certificate, "files": files} if files else certificate

    def _own_certificate(self) -> dict[str, Any]:
        first, last = self.derivation.steps[0].lhs, self.derivation.steps[-1].rhs
        return {
            "format": DERIVATION_FORMAT,
            "title": self.derivation.title,
            "domain": domain_data(self.derivation.domain),
            "conclusion": {"lhs": to_tree(first), "relation": self.relation, "rhs": to_tree(last)},
            "steps": [s.record for s in self.steps],
        }

    @property
    def exit_status(self) -> int:
        """0 proved or derived, 1 refuted, 3 undecided."""
        return {PROVED: 0, DERIVED: 0, REFUTED: 1, UNDECIDED: 3}[self.status]

    def to_json(self, with_certificate: bool = True) -> dict[str, Any]:
        """{"file", "title", "conclusion", "status", "hypotheses", "seconds", "steps", "certificate"?}."""
        document: dict[str, Any] = {
            "file": str(self.derivation.path),
            "title": self.derivation.title,
            "domain": self.derivation.domain.to_text(),
            "conclusion": self.conclusion,
            "status": self.status,
            "hypotheses": list(self.hypotheses),
            "seconds": round(self.seconds, 3),
            "steps": [s.to_json() for s in self.steps],
        }
        failure = self.first_failure
        if failure is not None:
            document["first_failing_step"] = failure.step.name
        certificate = self.certificate()
        if with_certificate and certificate is not None:
            document["certificate"] = certificate
        return document


@dataclass(frozen=True)
class _Used:
    """An assumption as the step uses it: a bound (variable, relation, value) or a gap with its record."""

    record: dict[str, Any]
    gap: Any = None
    strict: bool = False
    unproved: str = ""
    domain: Domain | None = None
    """The domain of the referenced derivation (whose certificate the record names by its key)."""


def derive(
    path: str | Path, budget_seconds: float = DEFAULT_STEP_BUDGET, facts: Facts = NO_FACTS
) -> DerivationResult:
    """Read and decide a derivation file (see the module docstring); MalformedDerivation on bad input.
    ``facts`` are the lemmas and chain pieces its steps may name (``lemma:NAME``, ``piece:NAME``; the
    files it references get the same). A file referenced (``file:``) from several steps or files is read
    and decided once, and its certificate is written once (the certificate's "files" table)."""
    decided: dict[Path, DerivationResult] = {}
    token = _DECIDED.set((Path(path).resolve().parent, decided))
    given = _FACTS.set(facts)
    try:
        result = _derive(Path(path), budget_seconds, ())
    finally:
        _FACTS.reset(given)
        _DECIDED.reset(token)
    folder = Path(path).resolve().parent
    referenced = tuple((_key(folder, p), r) for p, r in decided.items() if r.status in (PROVED, DERIVED))
    return dataclasses.replace(result, inputs=(Path(path).resolve(), *decided), referenced=referenced)


_DECIDED: ContextVar[tuple[Path, dict[Path, DerivationResult]] | None] = ContextVar("decided", default=None)
"""The folder of the file the current :func:`derive` call decides, and the referenced files decided so
far (resolved path -> result): a graph of files each referenced many times costs one decision per file,
not one per path through it."""

_FACTS: ContextVar[Facts] = ContextVar("facts", default=NO_FACTS)
"""The lemmas and chain pieces the current :func:`derive` call was given."""


def _key(folder: Path, path: Path) -> str:
    """A referenced file's key in the certificate's "files" table: its path from ``folder`` (every
    referenced file is in the folder of the file decided, or below it)."""
    return path.relative_to(folder).as_posix()


def _derive(path: Path, budget: float, stack: tuple[Path, ...]) -> DerivationResult:
    start = time.process_time()
    with cpu_limit(budget, f"reading {path.name}"):
        derivation = read_derivation(path)
    results = tuple(_decide(derivation, step, budget, (*stack, path.resolve())) for step in derivation.steps)
    return DerivationResult(derivation, results, time.process_time() - start)


def _decide(derivation: DerivationFile, step: Step, budget: float, stack: tuple[Path, ...]) -> StepResult:
    """The step's verdict within SEARCHES_PER_STEP times ``budget`` CPU seconds (and GRACE) for all of it,
    identities and normal forms included (:func:`theory.prover.cpu_budget.cpu_limit`); past them, undecided.
    The proofs of the facts it uses (a lemma, a piece, an earlier file) are not charged to it: each has
    budgets of its own."""
    start = time.process_time()
    try:
        with cpu_limit(SEARCHES_PER_STEP * budget + GRACE, f"step {step.name!r}"):
            return _decide_step(derivation, step, budget, stack)
    except OutOfBudget as error:
        method = SYMPY if step.relation == "=" else PROVER
        return StepResult(step, UNDECIDED, method, time.process_time() - start, reason=str(error))


SEARCHES_PER_STEP = 4
"""Prover searches one step may run, each within the step budget: its gap, and for a step by a fact the
substitution's ranges, the factor's sign and the instance; the step's CPU limit is this many budgets (plus
GRACE), identities, normal forms and sympy's work included."""


def _decide_step(
    derivation: DerivationFile, step: Step, budget: float, stack: tuple[Path, ...]
) -> StepResult:
    start = time.process_time()
    base = {"name": step.name, "lhs": to_tree(step.lhs), "relation": step.relation, "rhs": to_tree(step.rhs)}
    if step.relation == "=":
        return _identity(derivation, step, base, start)
    domain, used = derivation.domain, []
    for use in step.uses:
        with paused():  # a fact's own proof (a lemma, an earlier file) has budgets of its own
            found = _resolve(derivation, step, use, budget, stack)
        if "variable" in found.record:
            try:
                domain = cut(
                    domain,
                    found.record["variable"],
                    found.record["relation"],
                    Fraction(found.record["value"]),
                )
            except MalformedDomain as error:
                raise MalformedDerivation(f"{derivation.where(step.line)}: {use} leaves {error}") from None
        else:
            if found.unproved == "" and "certificate" in found.record and not _applies(found, domain):
                reason = f"{use} does not apply: its domain does not contain the step's"
                return StepResult(step, UNDECIDED, PROVER, time.process_time() - start, reason=reason)
        used.append(found)
    if step.by is not None:
        if any(u.gap is not None for u in used):
            raise MalformedDerivation(
                f"{derivation.where(step.line)}: a step by a fact uses only bound assumptions (x <= 3)"
            )
        with paused():
            fact = _fact_of(derivation, step, step.by, budget, stack)
        outcome = decide_by_fact(derivation, step, fact, domain, [u.record for u in used], budget)
        seconds = time.process_time() - start
        return StepResult(
            step, outcome.status, FACT, seconds, outcome.boxes, reason=outcome.reason, record=outcome.record
        )
    gaps = [(u.gap, u.strict) for u in used if u.gap is not None]
    tree, strict = step_gap_tree(base["lhs"], base["rhs"], step.relation, gaps)
    gap = from_tree(tree, domain.symbols(), f"step {step.name}")
    from theory.prover.search import search

    inequality = gap_inequality(gap, strict)
    sides = (base["lhs"], base["rhs"]) if step.relation in ("<=", "<") else (base["rhs"], base["lhs"])
    tail = None if gaps else _half_line_tail(inequality, domain, sides)
    if tail is not None:  # only bound assumptions were used (no gaps): nothing unproved
        proved = {**base, "method": PROVER, "assumptions": [u.record for u in used], "certificate": tail}
        return StepResult(step, PROVED, PROVER, time.process_time() - start, 1, record=proved)
    result = search(inequality, domain, budget)
    seconds = time.process_time() - start
    status, reason = result.status, result.reason
    unproved = [u.unproved for u in used if u.unproved]
    if status == PROVED and not _text_states(inequality, domain):
        status, reason = UNDECIDED, "the certificate's text does not re-read to its gap (a printing problem)"
    elif status == PROVED and unproved:
        status, reason = UNDECIDED, f"proved under {', '.join(unproved)}, which is not proved"
    elif status == UNDECIDED and len(result.remaining):
        left = f"{count_of_boxes(len(result.remaining))} left, e.g. {result.remaining[0].to_json()}"
        reason = f"{left}; {reason}".strip("; ")
    record = None
    if status == PROVED and result.certificate is not None:
        record = {
            **base,
            "method": PROVER,
            "assumptions": [u.record for u in used],
            "certificate": result.certificate.to_json(),
        }
    return StepResult(
        step, status, PROVER, seconds, result.boxes, result.witness, len(result.remaining), reason, record
    )


def _half_line_tail(inequality: Inequality, domain: Domain, sides: tuple[Any, Any]) -> dict[str, Any] | None:
    """One kernel certificate of the step (``sides`` its lower and upper side) over its domain when that
    is a real half-line [a, oo) of one variable (:func:`theory.derive.half_line.half_line_certificate`: the
    crossover's tail methods, which need no box splitting on the unbounded end), else None."""
    import math

    from theory.derive.half_line import half_line_certificate

    (variable, *others) = domain.variables
    if others or variable.integer or variable.lower_open or not math.isinf(variable.upper):
        return None
    if math.isinf(variable.lower) or not _text_states(inequality, domain):
        return None
    start = Fraction(str(variable.lower))
    return half_line_certificate(
        inequality.text, inequality.gap_tree(), inequality.strict, variable.name, start, sides
    )


def _text_states(inequality: Inequality, domain: Domain) -> bool:
    """The certificate's inequality text, read by the safe language, gives the step's gap tree (what
    :func:`theory.prover.check_certificate` binds before it accepts)."""
    from theory.prover.statement import MalformedStatement, parse_statement

    try:
        (read,) = parse_statement(inequality.text, domain).inequalities
    except (MalformedStatement, ValueError):
        return False
    return read.gap_tree() == inequality.gap_tree() and read.strict == inequality.strict


def _applies(found: _Used, domain: Domain) -> bool:
    from theory.derive.check import covers

    if found.domain is not None:  # a referenced derivation, whose certificate is in the files table
        return covers(found.domain, domain)
    return covers(domain_of(found.record["certificate"]["domain"]), domain)


def _identity(derivation: DerivationFile, step: Step, base: dict[str, Any], start: float) -> StepResult:
    from theory.prover.chain import identically_zero

    if step.uses:
        raise MalformedDerivation(f"{derivation.where(step.line)}: an identity step (=) uses nothing")
    difference = sp.expand(step.lhs - step.rhs)
    if not (defined_on(base["lhs"], derivation.domain) and defined_on(base["rhs"], derivation.domain)):
        reason = "its sides are not shown defined on the whole domain (a division by 0, a log of 0, ...)"
        return StepResult(step, UNDECIDED, SYMPY, time.process_time() - start, reason=reason)
    if identically_zero(step.lhs - step.rhs):
        method = EXACT if exact_zero(difference_tree(base["lhs"], base["rhs"])) else SYMPY
        status = PROVED if method == EXACT else DERIVED
        reason = "" if method == EXACT else "sympy's normal form reaches 0; the kernel's exact form does not"
        record = {**base, "method": method}
        return StepResult(step, status, method, time.process_time() - start, reason=reason, record=record)
    witness = _separating_point(difference, derivation.domain)
    seconds = time.process_time() - start
    if witness is not None:
        return StepResult(
            step, REFUTED, SYMPY, seconds, witness=witness, reason="the two sides differ at the witness"
        )
    return StepResult(
        step, UNDECIDED, SYMPY, seconds, reason="sympy's normal form does not reach 0, no probe separates"
    )


PROBE_VALUES = tuple(Fraction(v) for v in ("1", "2", "3", "1/2", "1/3", "5/2", "7", "-1", "-2", "0"))


def probe_points(domain: Domain, per_variable: int = 3, limit: int = 81) -> list[dict[str, Fraction]]:
    """Exact points of the domain: per variable its finite closed ends, then small numbers it contains."""
    choices = []
    for variable in domain.variables:
        values = [
            e for e in (variable.lower, variable.upper) if isinstance(e, Fraction) and variable.contains(e)
        ]
        values += [v for v in PROBE_VALUES if variable.contains(v) and v not in values]
        if not values and isinstance(variable.lower, Fraction) and isinstance(variable.upper, Fraction):
            values = [(variable.lower + variable.upper) / 2]
        choices.append(values[:per_variable] or [Fraction(0)])
    points = [
        dict(zip(domain.names, combination, strict=True)) for combination in itertools.product(*choices)
    ]
    return [p for p in points if all(domain[n].contains(v) for n, v in p.items())][:limit]


def _separating_point(difference: sp.Expr, domain: Domain) -> Witness | None:
    """A point where the difference's ball excludes 0 (the sides differ there)."""
    from theory.prover.kernel.verify import read_domain
    from theory.prover.search import point_value

    tree, kernel_domain = to_tree(difference), read_domain(domain_data(domain))
    for point in probe_points(domain):
        value = point_value(tree, point, kernel_domain)
        if value is not None and (value.at_least_zero(True) or value.at_most_zero(True)):
            return Witness(point, (str(value.lo), str(value.hi)))
    return None


def _fact_of(
    derivation: DerivationFile, step: Step, use: FactUse, budget: float, stack: tuple[Path, ...]
) -> Fact:
    """The fact a step is ``by``: a chain piece, a lemma, an earlier derivation or an assumption (this one
    without a substitution: it holds at the point, not at another one)."""
    where = derivation.where(step.line)
    if use.name.startswith(PIECE_PREFIX):
        name = use.name[len(PIECE_PREFIX) :]
        facts = _FACTS.get()
        try:
            return piece_fact(facts, name, budget)
        except KeyError:
            names = ", ".join(piece.name for piece in facts.chain().pieces) if facts.chain else ""
            known = f"{facts.chain_name}: {names}" if facts.chain else "no chain given"
            raise MalformedDerivation(f"{where}: unknown piece {name!r} ({known})") from None
    if use.name.startswith(LEMMA_PREFIX):
        return lemma_fact(derivation, step, use.name[len(LEMMA_PREFIX) :])
    if use.name.startswith(FILE_PREFIX):
        return earlier_fact(derivation, step, use.name[len(FILE_PREFIX) :], budget, stack)
    if use.substitution:
        raise MalformedDerivation(
            f"{where}: an assumption holds at the point, not under a substitution (drop the substitution)"
        )
    return given_fact(derivation, use.name)


def _resolve(
    derivation: DerivationFile, step: Step, use: str, budget: float, stack: tuple[Path, ...]
) -> _Used:
    if use.startswith(LEMMA_PREFIX):
        return _lemma(derivation, step, use[len(LEMMA_PREFIX) :])
    if use.startswith(FILE_PREFIX):
        return _earlier(derivation, step, use[len(FILE_PREFIX) :], budget, stack)
    assumption = derivation.assumptions[use]
    bound = _bound(assumption, derivation.domain)
    if bound is not None:
        return _Used(bound)
    tree = to_tree(assumption.gap)
    return _Used(
        {"kind": "given", "name": use, "gap": tree, "strict": assumption.strict}, tree, assumption.strict
    )


def _bound(assumption: Assumption, domain: Domain) -> dict[str, Any] | None:
    """{"kind": "bound", "variable", "relation", "value"} when the assumption is a variable against a
    number (its gap is c (x - v), c a nonzero rational)."""
    symbols = assumption.gap.free_symbols
    if len(symbols) != 1:
        return None
    (symbol,) = symbols
    if not (isinstance(symbol, sp.Symbol) and symbol.name in domain.names):
        return None
    polynomial = sp.Poly(assumption.gap, symbol) if assumption.gap.is_polynomial(symbol) else None
    if (
        polynomial is None
        or polynomial.degree() != 1
        or not all(c.is_Rational for c in polynomial.all_coeffs())
    ):
        return None
    slope, offset = polynomial.all_coeffs()
    value = -offset / slope
    relation = (">" if slope > 0 else "<") + ("" if assumption.strict else "=")
    return {"kind": "bound", "variable": symbol.name, "relation": relation, "value": str(value)}


def _lemma(derivation: DerivationFile, step: Step, name: str) -> _Used:
    fact = lemma_fact(derivation, step, name)
    if set(fact.domain.names) - set(derivation.domain.names):
        raise MalformedDerivation(
            f"{derivation.where(step.line)}: lemma {name!r} is not one inequality over the derivation's "
            f"variables (it needs {', '.join(fact.domain.names)}; or use it by a substitution)"
        )
    unproved = "" if fact.status == PROVED else f"lemma {name} ({fact.reason})"
    return _Used(fact.record, fact.gap, fact.strict, unproved=unproved)


def lemma_fact(derivation: DerivationFile, step: Step, name: str) -> Fact:
    """The lemma ``name`` of the given facts (:class:`~theory.derive.facts.Facts`) as a fact over its own
    domain (MalformedDerivation when there is no such lemma of one inequality)."""
    from theory.prover.lemma_inequalities import decide

    entries = {entry.name: entry for entry in _FACTS.get().lemmas()}
    if name not in entries:
        known = f"the lemmas given are, e.g., {', '.join(sorted(entries)[:3])}" if entries else "none given"
        raise MalformedDerivation(f"{derivation.where(step.line)}: unknown lemma {name!r} ({known})")
    entry = entries[name]
    if len(entry.statement.inequalities) != 1:
        raise MalformedDerivation(f"{derivation.where(step.line)}: lemma {name!r} is not one inequality")
    verdict = decide(entry)
    (inequality,) = entry.statement.inequalities
    tree = to_tree(inequality.gap)
    certificate = _lemma_certificate(verdict.result) if verdict.status == PROVED else None
    record = {"kind": "lemma", "name": name, "gap": tree, "strict": inequality.strict}
    domain = entry.statement.domain
    if certificate is None:
        return Fact(tree, inequality.strict, domain, record, UNDECIDED, str(verdict.status))
    return Fact(tree, inequality.strict, domain, {**record, "certificate": certificate}, PROVED)


def _lemma_certificate(result: ProofResult | ChainResult) -> dict[str, Any] | None:
    """A proved lemma's certificate: its chain certificate, or its one inequality's."""
    if isinstance(result, ChainResult):
        return result.certificate()
    (part,) = result.parts
    return part.certificate.to_json() if part.certificate is not None else None


def _earlier(
    derivation: DerivationFile, step: Step, name: str, budget: float, stack: tuple[Path, ...]
) -> _Used:
    fact = earlier_fact(derivation, step, name, budget, stack)
    unknown = set(fact.domain.names) - set(derivation.domain.names)
    if unknown:
        raise MalformedDerivation(
            f"{derivation.where(step.line)}: {name} has variables {', '.join(sorted(unknown))} "
            "this file does not declare"
        )
    unproved = "" if fact.status == PROVED else f"derivation {name} ({fact.reason})"
    return _Used(fact.record, fact.gap, fact.strict, unproved=unproved, domain=fact.domain)


def earlier_fact(
    derivation: DerivationFile, step: Step, name: str, budget: float, stack: tuple[Path, ...]
) -> Fact:
    """The conclusion of an earlier derivation file as a fact over its domain (proved only when its
    certificate exists and it is unconditional)."""
    where = derivation.where(step.line)
    try:
        folder = derivation.path.parent.resolve()
        path = (folder / name).resolve()
    except (OSError, RuntimeError, ValueError):  # a link loop; a NUL in the name
        raise MalformedDerivation(f"{where}: the reference file:{name!r} cannot be resolved") from None
    if not path.is_relative_to(folder):
        raise MalformedDerivation(
            f"{where}: file:{name!r} is outside the folder of {derivation.path.name}; a reference names a "
            "derivation file in that folder or below it"
        )
    if path in stack:
        raise MalformedDerivation(f"{where}: circular reference to {name}")
    if not path.exists():
        raise MalformedDerivation(f"{where}: no derivation file {name}")
    top, decided = _DECIDED.get() or (folder, {})  # outside derive(): keys from this file's folder
    earlier = decided.get(path)
    if earlier is None:
        earlier = _derive(path, budget, stack)  # its steps have budgets of their own
        decided[path] = earlier
    certificate = {"file": _key(top, path)} if earlier.status in (PROVED, DERIVED) else None
    first, last = earlier.derivation.steps[0].lhs, earlier.derivation.steps[-1].rhs
    tree, strict = step_gap_tree(to_tree(first), to_tree(last), earlier.relation, [])
    record = {"kind": "derivation", "name": name, "gap": tree, "strict": strict}
    domain = earlier.derivation.domain
    if certificate is None or earlier.hypotheses:
        why = earlier.status if certificate is None else f"conditional on {', '.join(earlier.hypotheses)}"
        return Fact(tree, strict, domain, record, UNDECIDED, why)
    return Fact(tree, strict, domain, {**record, "certificate": certificate}, PROVED)
