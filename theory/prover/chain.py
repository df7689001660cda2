"""Chain proofs: a statement too large to branch and bound, decided as a checked sum of proved pieces.

A chain proves ``gap >= 0`` over a domain D (variables x) from pieces i = 1..n, each

    factor_i(x) * sub_i(sigma_i(x)),

where ``sub_i(y) >= 0`` is a statement over its own, smaller domain D_i (variables y), ``sigma_i`` maps x to
y (y_j := e_ij(x)) and ``factor_i`` is an expression in x. :func:`prove_chain` decides every piece with the
interval prover (a certificate each; the ceiling facts ceiling(z) >= z and z + 1 - ceiling(z) >= 0 through
the kernel's change of variables t = ceiling(z) - z in [0, 1)) and writes the chain certificate
(``specbound-chain-certificate/2``: trees and the pieces' certificates), which the kernel re-checks from its
JSON alone with no sympy (:mod:`theory.prover.kernel.chain`): every piece's certificate, the substitutions'
ranges and the factors' signs in balls over D, and the identity gap - sum_i factor_i sub_i(sigma_i) = 0 by
its exact normal form. Then gap = sum of products of nonnegative numbers, hence >= 0 on D.

Before the pieces, the kernel's structural checks (identity, signs, ranges) run on the chain's trees, so
a chain that cannot sum to the statement is left undecided with the reason before any piece is searched.
The budget bounds the pieces' search only: the structural check (the kernel's, its time fixed by the
chain) and the witness probes are timed apart and reported. The probes run only when the chain is not
proved: the statement itself is evaluated in ball arithmetic at the chain's probe points, for at most
PROBE_SECONDS of CPU time, and a point where its gap's ball is < 0 refutes it (a rigorous witness).
:func:`identically_zero` and :func:`range_holds` are sympy's identity and range checks, kept for
theory.derive's ``sympy`` steps (not the chain's).

Provenance: derived (the decomposition and every piece re-checked by the kernel).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from theory.errors import InvalidArgument
from theory.prover.certificate import domain_data
from theory.prover.domain import Domain, VariableDomain
from theory.prover.language import to_tree
from theory.prover.result import PROVED, REFUTED, UNDECIDED, InequalityResult, ProverStatus, Witness
from theory.prover.statement import Inequality

PROBE_SECONDS = 1.0
"""CPU seconds the witness probes of a chain that is not proved may take (outside the pieces' budget)."""
CHAIN_FORMAT = "specbound-chain-certificate/2"
"""The kernel's chain format (theory.prover.kernel.chain.FORMAT, which imports python-flint: read lazily)."""


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


@dataclass(frozen=True)
class Chain:
    """gap >= 0 over ``domain`` as the sum of ``pieces``; ``probes`` are points tried for a witness."""

    inequality: Inequality
    domain: Domain
    pieces: tuple[Piece, ...]
    probes: tuple[dict[str, Fraction], ...] = field(default=(), compare=False, hash=False)


# --- sympy's identity and range checks (theory.derive's sympy steps) ---


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


def kernel_pieces(chain: Chain) -> list[Any]:
    """The chain's pieces as the kernel reads them (:class:`theory.prover.kernel.chain.Piece`: trees, the
    pieces' domains as kernel records)."""
    from theory.prover.kernel import chain as kernel_chain
    from theory.prover.kernel.verify import read_domain

    return [
        kernel_chain.Piece(
            piece.name,
            to_tree(piece.factor),
            {name: to_tree(value) for name, value in piece.substitution.items()},
            to_tree(piece.sub.gap),
            read_domain(domain_data(piece.sub_domain)),
        )
        for piece in chain.pieces
    ]


def structural_failure(chain: Chain) -> str | None:
    """Everything but the pieces' own decisions, by the kernel: identity, signs, ranges (None when all
    hold)."""
    from theory.prover.kernel import chain as kernel_chain
    from theory.prover.kernel.verify import read_domain

    domain = read_domain(domain_data(chain.domain))
    return kernel_chain.structure_failure(to_tree(chain.inequality.gap), domain, kernel_pieces(chain))


# --- proving ---


@dataclass(frozen=True)
class PieceResult:
    """A piece's verdict: the prover's result on it."""

    piece: Piece
    status: ProverStatus
    result: InequalityResult

    def to_json(self) -> dict[str, Any]:
        """{"name", "statement", "domain", "status", "boxes", "seconds"}."""
        return {
            "name": self.piece.name,
            "statement": f"{self.piece.sub.gap} >= 0",
            "domain": self.piece.sub_domain.to_text(),
            "status": self.status,
            "boxes": self.result.boxes,
            "seconds": round(self.result.seconds, 4),
        }


@dataclass(frozen=True)
class ChainResult:
    """The verdict on a chain: proved (every step holds), refuted (a probe point is a witness), or
    undecided (with the reason); quacks like :class:`~theory.prover.result.ProofResult`. ``seconds`` is
    the whole CPU time; ``structure_seconds`` and ``probe_seconds`` the parts outside the pieces'
    budget."""

    chain: Chain
    status: ProverStatus
    pieces: tuple[PieceResult, ...]
    seconds: float
    reason: str = ""
    witness: Witness | None = None
    structure_seconds: float = 0.0
    probe_seconds: float = 0.0

    @property
    def boxes(self) -> int:
        """Boxes examined over all pieces."""
        return sum(p.result.boxes for p in self.pieces)

    @property
    def parts(self) -> tuple[InequalityResult, ...]:
        """One result for the whole statement (carrying the witness when refuted)."""
        text = self.chain.inequality.text
        return (InequalityResult(text, self.status, self.boxes, self.seconds, witness=self.witness),)

    def certificate(self) -> dict[str, Any] | None:
        """The chain certificate (proved only): statement, domain, and per piece its factor, substitution
        and the prover's certificate (:mod:`theory.prover.kernel.chain`)."""
        if self.status != PROVED:
            return None
        pieces = []
        for outcome in self.pieces:
            piece = outcome.piece
            assert outcome.result.certificate is not None
            pieces.append(
                {
                    "name": piece.name,
                    "factor": to_tree(piece.factor),
                    "substitution": {k: to_tree(v) for k, v in piece.substitution.items()},
                    "certificate": outcome.result.certificate.to_json(),
                }
            )
        return {
            "format": CHAIN_FORMAT,
            "inequality": self.chain.inequality.text,
            "gap": to_tree(self.chain.inequality.gap),
            "domain": domain_data(self.chain.domain),
            "pieces": pieces,
        }

    def to_json(self, with_certificate: bool = False) -> dict[str, Any]:
        """{"statement", "domain", "status", "boxes", "seconds", "structure_seconds", "probe_seconds",
        "pieces", "reason"?, "witness"?}."""
        record: dict[str, Any] = {
            "statement": self.chain.inequality.text,
            "domain": self.chain.domain.to_text(),
            "status": self.status,
            "boxes": self.boxes,
            "seconds": round(self.seconds, 4),
            "structure_seconds": round(self.structure_seconds, 4),
            "probe_seconds": round(self.probe_seconds, 4),
            "pieces": [p.to_json() for p in self.pieces],
        }
        if self.reason:
            record["reason"] = self.reason
        if self.witness is not None:
            record["witness"] = self.witness.to_json()
        if with_certificate and self.certificate() is not None:
            record["certificate"] = self.certificate()
        return record


def find_probe_witness(chain: Chain, deadline: float = math.inf) -> Witness | None:
    """The first probe point where the statement's gap is rigorously < 0 in ball arithmetic, trying points
    until the CPU clock passes ``deadline``."""
    from theory.prover.kernel.verify import read_domain
    from theory.prover.search import witness_at

    tree, domain = to_tree(chain.inequality.gap), read_domain(domain_data(chain.domain))
    for point in chain.probes:
        if time.process_time() > deadline:
            return None
        if set(point) != set(chain.domain.names) or not all(
            chain.domain[n].contains(v) for n, v in point.items()
        ):
            continue  # a witness must be a point of the domain
        witness = witness_at(tree, True, point, domain)
        if witness is not None:
            return witness
    return None


def prove_chain(chain: Chain, budget_seconds: float = 60.0) -> ChainResult:
    """Check identity, signs and ranges, then decide every piece within ``budget_seconds`` (the budget
    left shared equally by the pieces still to search) and have the kernel re-check the chain certificate
    they make (:func:`check_chain`: proved only when it accepts); when the chain is not proved, probe for a
    witness during at most PROBE_SECONDS. The structural check and the probes are timed apart (see the
    module docstring)."""
    from theory.prover.search import search

    start = time.process_time()
    failure = structural_failure(chain)
    structure_seconds = time.process_time() - start
    outcomes: list[PieceResult] = []
    if failure is None:
        pieces_start = time.process_time()
        for piece in chain.pieces:
            left = max(0.0, budget_seconds - (time.process_time() - pieces_start))
            share = left / (len(chain.pieces) - len(outcomes))  # an equal share each
            result = search(piece.sub, piece.sub_domain, share)
            outcomes.append(PieceResult(piece, result.status, result))
        open_pieces = [o.piece.name for o in outcomes if o.status != PROVED]
        failure = f"pieces not proved: {', '.join(open_pieces)}" if open_pieces else None
    if failure is None:  # the verdict is the kernel's, on the certificate as written
        certificate = ChainResult(chain, PROVED, tuple(outcomes), 0.0).certificate()
        assert certificate is not None
        report = check_chain(certificate)
        failure = None if report.accepted else f"the kernel rejected the chain certificate: {report.reason}"
    status, witness, probe_seconds = PROVED, None, 0.0
    if failure is not None:
        probe_start = time.process_time()
        witness = find_probe_witness(chain, probe_start + PROBE_SECONDS)
        probe_seconds = time.process_time() - probe_start
        status = UNDECIDED if witness is None else REFUTED
        failure = failure if witness is None else "a probe point violates the statement"
    return ChainResult(
        chain,
        status,
        tuple(outcomes),
        time.process_time() - start,
        failure or "",
        witness,
        structure_seconds,
        probe_seconds,
    )


# --- checking ---


@dataclass(frozen=True)
class ChainCheckReport:
    """accepted, with the reason of a rejection; seconds of CPU time the check took."""

    accepted: bool
    reason: str
    seconds: float


def check_chain(data: dict[str, Any]) -> ChainCheckReport:
    """Re-check a chain certificate from its JSON by the kernel (:mod:`theory.prover.kernel.chain`: no
    sympy, nothing the prover computed trusted); InvalidChain when it is not a chain certificate."""
    from theory.prover.kernel import chain as kernel_chain
    from theory.prover.kernel.trees import Malformed

    start = time.process_time()
    try:
        verdict = kernel_chain.check(data)
    except Malformed as error:
        raise InvalidChain(str(error)) from None
    return ChainCheckReport(verdict.accepted, verdict.reason, time.process_time() - start)
