"""Chain proofs: a statement too large to branch and bound, decided as a checked sum of proved pieces.

A chain proves ``gap >= 0`` over a domain D (variables x) from pieces i = 1..n, each

    factor_i(x) * sub_i(sigma_i(x)),

where ``sub_i(y) >= 0`` is a statement over its own, smaller domain D_i (variables y), ``sigma_i`` maps x to
y (y_j := e_ij(x)) and ``factor_i`` is an expression in x. The chain holds when

1. identity: ``gap - sum_i factor_i * sub_i(sigma_i(x))`` simplifies to 0 (sympy);
2. signs: every ``factor_i`` is >= 0 on D (sympy's assumptions, from the symbols D implies);
3. ranges: ``sigma_i`` maps D into D_i: a y_j that is a variable of D must have its set inside D_i's, any
   other e_ij must have the sign D_i requires (sympy's assumptions; D_i's ends at 0 or +-oo);
4. pieces: every ``sub_i >= 0`` is decided on D_i, by the interval prover (method ``prover``: a certificate
   the kernel of :mod:`theory.prover.kernel` re-checks) or, for the two facts about ceiling that no
   branch and bound over a half-line can decide (ceiling(z) - z >= 0, z + 1 - ceiling(z) >= 0: periodic),
   by sympy's own relational evaluation (method ``sympy``: ceiling(z) >= z, and frac(-z) <= 1 after the
   identity ceiling(z) = z + frac(-z), itself checked).

Then gap = sum of products of nonnegative numbers, hence >= 0 on D: every step is a computation that
:func:`check_chain` repeats from the certificate's JSON alone. Before the pieces, the statement itself is
evaluated in ball arithmetic at the chain's probe points: a point where its gap's ball is < 0 refutes it
(a rigorous witness). A piece that is not decided, or a failed identity, sign or range, leaves the statement
undecided with the reason (never proved).

Provenance: derived (the decomposition is checked by sympy, each piece decided by the prover).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from theory.errors import InvalidArgument
from theory.prover.certificate import domain_data, domain_of
from theory.prover.domain import Domain, VariableDomain
from theory.prover.language import from_tree, to_tree
from theory.prover.result import PROVED, REFUTED, UNDECIDED, InequalityResult, ProverStatus, Witness
from theory.prover.statement import Inequality

CHAIN_FORMAT = "specbound-chain-certificate/1"
PROVER, SYMPY = "prover", "sympy"


class InvalidChain(InvalidArgument):
    """A chain certificate that is not in the chain format, or names variables it does not declare."""


@dataclass(frozen=True)
class Piece:
    """factor * sub(substitution): ``sub`` is one inequality (gap >= 0) over its own domain."""

    name: str
    factor: sp.Expr
    sub: Inequality
    sub_domain: Domain
    substitution: dict[str, sp.Expr]
    method: str = PROVER

    def term(self) -> sp.Expr:
        """factor * sub's gap with its variables replaced by the substitution."""
        replace = {
            s: self.substitution[s.name] for s in self.sub.gap.free_symbols if isinstance(s, sp.Symbol)
        }
        return self.factor * self.sub.gap.xreplace(replace)


@dataclass(frozen=True)
class Chain:
    """gap >= 0 over ``domain`` as the sum of ``pieces``; ``probes`` are points tried for a witness."""

    inequality: Inequality
    domain: Domain
    pieces: tuple[Piece, ...]
    probes: tuple[dict[str, Fraction], ...] = field(default=(), compare=False, hash=False)


# --- the mechanical steps (shared by the prover and the chain checker) ---


def identically_zero(expr: sp.Expr) -> bool:
    """sympy shows expr == 0, in three identity-preserving steps: every log(u) becomes log(factor(u)) with
    products and powers of positive factors split (sympy's expand_log, which splits nothing else); the
    result is expanded into terms; the terms are grouped by the logs, ceilings and minima they contain and
    each group must vanish, by sympy's simplify or as a sum of power products (below)."""
    normal = expr.replace(
        lambda e: isinstance(e, sp.log), lambda e: sp.expand_log(sp.log(sp.factor(e.args[0])))
    )
    groups: dict[frozenset[sp.Basic], list[sp.Expr]] = {}
    for term in sp.Add.make_args(sp.expand(sp.expand_power_base(normal))):
        groups.setdefault(frozenset(term.atoms(sp.log, sp.ceiling, sp.Min)), []).append(term)
    return all(_group_vanishes(terms) for terms in groups.values())


def _group_vanishes(terms: list[sp.Expr]) -> bool:
    """sum(terms) == 0: by simplify, or as sum_i sign_i |t_i / t_1| = 0 with each |t_i / t_1| written as
    exp of its logarithm expanded over primes and positive symbols (power products such as c_p A^a B^b vs
    A k* + B k*^{-2/p}, which simplify leaves unreduced)."""
    total = sp.Add(*terms)
    if total == 0 or sp.simplify(total) == 0:
        return True
    first = terms[0]
    parts = []
    for term in terms:
        ratio = term / first
        sign = sp.sign(ratio)
        if sign not in (1, -1):
            return False
        logarithm = sp.simplify(sp.expand(sp.expand_log(sp.log(sign * ratio), factor=True)))
        parts.append(sign * sp.exp(logarithm))
    return sp.simplify(sp.Add(*parts)) == 0


def _ceiling_as_frac(expr: sp.Expr) -> sp.Expr | None:
    """expr with ceiling(u) -> u + frac(-u) (sympy checks each replacement), or None if none applies."""
    replacements = {}
    for part in expr.atoms(sp.ceiling):
        (u,) = part.args
        replacement = u + sp.frac(-u)
        if sp.simplify(replacement.rewrite(sp.ceiling) - part) != 0:
            return None
        replacements[part] = replacement
    return expr.xreplace(replacements) if replacements else None


def sympy_decides_nonnegative(gap: sp.Expr) -> bool:
    """sympy's relational evaluation gives ``rest >= -term`` as true for one split gap = term + rest (of gap
    or of its frac form): e.g. ceiling(z) >= z, frac(-z) <= 1."""
    forms = [gap]
    as_frac = _ceiling_as_frac(gap)
    if as_frac is not None:
        forms.append(sp.expand(as_frac))
    for form in forms:
        for term in sp.Add.make_args(form):
            rest = form - term
            if (rest >= -term) is sp.true or ((-term) <= rest) is sp.true:
                return True
    return False


def factor_sign(factor: sp.Expr) -> bool:
    """factor >= 0 by sympy's assumptions (the symbols carry what their domain implies)."""
    return factor.is_nonnegative is True


def _contains(outer: VariableDomain, inner: VariableDomain) -> bool:
    """inner's set lies in outer's (reals; integers only inside integers)."""
    if outer.integer and not inner.integer:
        return False
    low = inner.lower > outer.lower or (
        inner.lower == outer.lower and (inner.lower_open or not outer.lower_open)
    )
    high = inner.upper < outer.upper or (
        inner.upper == outer.upper and (inner.upper_open or not outer.upper_open)
    )
    return bool(low and high)


def range_holds(value: sp.Expr, target: VariableDomain, domain: Domain) -> bool:
    """value (an expression in domain's variables) lies in target's set at every point of domain."""
    if isinstance(value, sp.Symbol) and value.name in domain.names:
        return _contains(target, domain[value.name])
    if target.integer or not math.isinf(target.upper):
        return False
    if math.isinf(target.lower):
        return value.is_real is True
    shifted = value - sp.Rational(target.lower.numerator, target.lower.denominator)  # type: ignore[union-attr]
    return (shifted.is_positive if target.lower_open else shifted.is_nonnegative) is True


def structural_failures(chain: Chain) -> list[str]:
    """Everything but the pieces' own decisions: identity, signs, ranges (empty when all hold)."""
    failures = []
    for piece in chain.pieces:
        if set(piece.substitution) != set(piece.sub_domain.names):
            failures.append(f"{piece.name}: the substitution does not give every variable of its domain")
            continue
        if not factor_sign(piece.factor):
            failures.append(f"{piece.name}: sympy cannot show its factor {piece.factor} >= 0")
        for name, value in piece.substitution.items():
            if not range_holds(value, piece.sub_domain[name], chain.domain):
                failures.append(f"{piece.name}: {name} := {value} is not shown to lie in its domain")
    if not failures:
        remainder = chain.inequality.gap - sp.Add(*(piece.term() for piece in chain.pieces))
        if not identically_zero(remainder):
            failures.append("identity: gap - sum of factor * piece does not simplify to 0")
    return failures


# --- proving ---


@dataclass(frozen=True)
class PieceResult:
    """A piece's verdict: the prover's result (method prover) or sympy's decision (method sympy)."""

    piece: Piece
    status: ProverStatus
    result: InequalityResult | None = None

    def to_json(self) -> dict[str, Any]:
        """{"name", "method", "statement", "domain", "status", "boxes", "seconds"}."""
        return {
            "name": self.piece.name,
            "method": self.piece.method,
            "statement": f"{self.piece.sub.gap} >= 0",
            "domain": self.piece.sub_domain.to_text(),
            "status": self.status,
            "boxes": self.result.boxes if self.result else 0,
            "seconds": round(self.result.seconds, 4) if self.result else 0.0,
        }


@dataclass(frozen=True)
class ChainResult:
    """The verdict on a chain: proved (every step holds), refuted (a probe point is a witness), or
    undecided (with the reason); quacks like :class:`~theory.prover.result.ProofResult`."""

    chain: Chain
    status: ProverStatus
    pieces: tuple[PieceResult, ...]
    seconds: float
    reason: str = ""
    witness: Witness | None = None

    @property
    def boxes(self) -> int:
        """Boxes examined over all pieces."""
        return sum(p.result.boxes for p in self.pieces if p.result is not None)

    @property
    def parts(self) -> tuple[InequalityResult, ...]:
        """One result for the whole statement (carrying the witness when refuted)."""
        text = self.chain.inequality.text
        return (InequalityResult(text, self.status, self.boxes, self.seconds, witness=self.witness),)

    def certificate(self) -> dict[str, Any] | None:
        """The chain certificate (proved only): statement, domain, and per piece its factor, substitution
        and either the prover's certificate or the sympy-decided gap."""
        if self.status != PROVED:
            return None
        pieces = []
        for outcome in self.pieces:
            piece = outcome.piece
            record: dict[str, Any] = {
                "name": piece.name,
                "factor": to_tree(piece.factor),
                "substitution": {k: to_tree(v) for k, v in piece.substitution.items()},
                "method": piece.method,
            }
            if piece.method == PROVER:
                assert outcome.result is not None and outcome.result.certificate is not None
                record["certificate"] = outcome.result.certificate.to_json()
            else:
                record["gap"] = to_tree(piece.sub.gap)
                record["domain"] = domain_data(piece.sub_domain)
            pieces.append(record)
        return {
            "format": CHAIN_FORMAT,
            "inequality": self.chain.inequality.text,
            "gap": to_tree(self.chain.inequality.gap),
            "domain": domain_data(self.chain.domain),
            "pieces": pieces,
        }

    def to_json(self, with_certificate: bool = False) -> dict[str, Any]:
        """{"statement", "domain", "status", "boxes", "seconds", "pieces", "reason"?, "witness"?}."""
        record: dict[str, Any] = {
            "statement": self.chain.inequality.text,
            "domain": self.chain.domain.to_text(),
            "status": self.status,
            "boxes": self.boxes,
            "seconds": round(self.seconds, 4),
            "pieces": [p.to_json() for p in self.pieces],
        }
        if self.reason:
            record["reason"] = self.reason
        if self.witness is not None:
            record["witness"] = self.witness.to_json()
        if with_certificate and self.certificate() is not None:
            record["certificate"] = self.certificate()
        return record


def find_probe_witness(chain: Chain) -> Witness | None:
    """The first probe point where the statement's gap is rigorously < 0 in ball arithmetic."""
    from theory.prover.certificate import domain_data
    from theory.prover.kernel.verify import read_domain
    from theory.prover.language import to_tree
    from theory.prover.search import witness_at

    tree, domain = to_tree(chain.inequality.gap), read_domain(domain_data(chain.domain))
    for point in chain.probes:
        if set(point) != set(chain.domain.names) or not all(
            chain.domain[n].contains(v) for n, v in point.items()
        ):
            continue  # a witness must be a point of the domain
        witness = witness_at(tree, True, point, domain)
        if witness is not None:
            return witness
    return None


def prove_chain(chain: Chain, budget_seconds: float = 60.0) -> ChainResult:
    """Probe for a witness, check identity, signs and ranges, then decide every piece (the budget left
    shared equally by the pieces still to search)."""
    from theory.prover.search import search

    start = time.process_time()

    def finish(
        status: ProverStatus, outcomes: list[PieceResult], reason: str = "", **extra: Any
    ) -> ChainResult:
        return ChainResult(chain, status, tuple(outcomes), time.process_time() - start, reason, **extra)

    witness = find_probe_witness(chain)
    if witness is not None:
        return finish(REFUTED, [], "a probe point violates the statement", witness=witness)
    failures = structural_failures(chain)
    if failures:
        return finish(UNDECIDED, [], "; ".join(failures))
    outcomes: list[PieceResult] = []
    searched = [piece for piece in chain.pieces if piece.method != SYMPY]
    for piece in chain.pieces:
        if piece.method == SYMPY:
            status = PROVED if sympy_decides_nonnegative(piece.sub.gap) else UNDECIDED
            outcomes.append(PieceResult(piece, status))
            continue
        left = max(0.0, budget_seconds - (time.process_time() - start))
        share = left / (len(searched) - sum(o.result is not None for o in outcomes))  # an equal share each
        result = search(piece.sub, piece.sub_domain, share)
        outcomes.append(PieceResult(piece, result.status, result))
    open_pieces = [o.piece.name for o in outcomes if o.status != PROVED]
    if open_pieces:
        return finish(UNDECIDED, outcomes, f"pieces not proved: {', '.join(open_pieces)}")
    return finish(PROVED, outcomes)


# --- checking ---


@dataclass(frozen=True)
class ChainCheckReport:
    """accepted, with the reason of a rejection; seconds of CPU time the check took."""

    accepted: bool
    reason: str
    seconds: float


def _read(tree: Any, domain: Domain, where: str) -> sp.Expr:
    """A data tree read with the domain's symbols (nothing of the certificate's own is trusted)."""
    expr = from_tree(tree, domain.symbols(), where)
    if not isinstance(expr, sp.Expr):
        raise InvalidChain(f"{where} is not an expression")
    return expr


def check_chain(data: dict[str, Any]) -> ChainCheckReport:
    """Re-verify a chain certificate from its JSON: every prover certificate by the kernel, every sympy
    piece by sympy, then signs, ranges and the identity (nothing the prover computed is trusted)."""
    from theory.prover.kernel import check_certificate

    start = time.process_time()

    def report(accepted: bool, reason: str) -> ChainCheckReport:
        return ChainCheckReport(accepted, reason, time.process_time() - start)

    if not isinstance(data, dict) or data.get("format") != CHAIN_FORMAT:
        raise InvalidChain(f"not a chain certificate: format must be {CHAIN_FORMAT!r}")
    try:
        domain = domain_of(data["domain"])
        gap = _read(data["gap"], domain, "the statement")
        if not isinstance(data["pieces"], list) or not data["pieces"]:
            return report(False, "a chain needs at least one piece")
        pieces = []
        for record in data["pieces"]:
            name = str(record["name"])
            if record["method"] == PROVER:
                sub_data = record["certificate"]
                checked = check_certificate(sub_data)
                if not checked.accepted:
                    return report(False, f"piece {name}: its certificate is rejected ({checked.reason})")
                sub_domain = domain_of(sub_data["domain"])
                sub_gap = _read(sub_data["gap"], sub_domain, f"piece {name}")
                if sub_data["strict"] is not False:
                    return report(False, f"piece {name}: a strict sub-statement is not a gap >= 0")
            elif record["method"] == SYMPY:
                sub_domain = domain_of(record["domain"])
                sub_gap = _read(record["gap"], sub_domain, f"piece {name}")
                if not sympy_decides_nonnegative(sub_gap):
                    return report(False, f"piece {name}: sympy does not decide {sub_gap} >= 0")
            else:
                return report(False, f"piece {name}: unknown method {record['method']!r}")
            factor = _read(record["factor"], domain, f"factor of {name}")
            substitution = {
                str(k): _read(v, domain, f"substitution of {name}") for k, v in record["substitution"].items()
            }
            pieces.append(
                Piece(
                    name, factor, Inequality(name, sub_gap, False), sub_domain, substitution, record["method"]
                )
            )
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidChain(f"malformed chain certificate: {type(error).__name__}: {error}") from None
    chain = Chain(Inequality(str(data.get("inequality", "")), gap, False), domain, tuple(pieces))
    failures = structural_failures(chain)
    if failures:
        return report(False, "; ".join(failures))
    return report(True, f"{len(pieces)} pieces decided, signs, ranges and the identity hold")
