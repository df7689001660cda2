"""Re-check a chain certificate: gap = sum_i factor_i * sub_i(sigma_i(x)) >= 0 from its JSON alone.

Format ``specbound-chain-certificate/2``: ``{"format", "inequality", "gap": TREE, "domain": [records],
"pieces": [{"name", "factor": TREE, "substitution": {y: TREE}, "certificate": CERT}, ...]}`` with every
tree over the chain's variables and CERT a ``specbound-certificate/2`` of sub_i >= 0 over its own domain
D_i (variables y). The kernel accepts when

1. there is at least one piece, and every piece's certificate is accepted (:func:`verify.check`);
2. every piece's substitution gives exactly D_i's variables, and each value's range over the chain's
   domain D lies in D_i's set of its variable (in balls, as a substitution step's ranges:
   :func:`theory.prover.kernel.substitution.range_failure`);
3. every factor's enclosure over D is >= 0 (so it is defined on D), and the gap is defined on D;
4. the exact normal form of gap - sum_i factor_i * sub_i[y := sigma_i] vanishes, with D's variables that
   lie in (0, oo) given as positive (:func:`theory.prover.kernel.exact.vanishes`).

Then at every x of D each term is a product of two numbers >= 0 and the gap is their sum. Theorem 4.1's
chain (theory.interpolation) is checked so, with no sympy: its identity, the balanced term's c_p
included, is reached by the normal form (power products of positive bases with exponents in p over a
common denominator). Provenance: derived (the kernel's enclosures and normal form).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from theory.prover.kernel import trees, verify
from theory.prover.kernel.substitution import range_failure, substitute, vanishes_on
from theory.prover.kernel.trees import Malformed

FORMAT = "specbound-chain-certificate/2"


@dataclass(frozen=True)
class Piece:
    """One term factor * sub(substitution) of a chain, sub >= 0 over ``domain`` (kernel records read)."""

    name: str
    factor: Any
    substitution: dict[str, Any]
    gap: Any
    domain: dict[str, verify.Variable]


def read_piece(record: Any, names: set[str]) -> tuple[Piece, Any]:
    """A piece record as (Piece, its certificate); Malformed when it is not one."""
    if not isinstance(record, dict) or not isinstance(record.get("name"), str):
        raise Malformed("a chain piece must be {name, factor, substitution, certificate}")
    certificate, substitution = record.get("certificate"), record.get("substitution")
    if not isinstance(certificate, dict) or not isinstance(substitution, dict):
        raise Malformed(f"piece {record['name']}: a certificate and a substitution are required")
    domain = verify.read_domain(certificate.get("domain"))
    gap = certificate.get("gap")
    trees.validate(gap, set(domain))
    trees.validate(record.get("factor"), names)
    for value in substitution.values():
        trees.validate(value, names)
    return Piece(record["name"], record["factor"], substitution, gap, domain), certificate


def structure_failure(gap: Any, domain: dict[str, verify.Variable], pieces: list[Piece]) -> str | None:
    """Why the pieces do not sum to the gap with nonnegative factors and ranges inside their domains (items
    2-4 of the module docstring), or None."""
    if not pieces:
        return "a chain needs at least one piece"
    whole: verify.Box = {name: (v.lower, v.upper) for name, v in domain.items()}
    for piece in pieces:
        if set(piece.substitution) != set(piece.domain):
            return f"piece {piece.name}: the substitution does not give exactly {sorted(piece.domain)}"
        for name, value in piece.substitution.items():
            failure = range_failure(name, value, piece.domain[name], whole, domain)
            if failure is not None:
                return f"piece {piece.name}: {failure}"
        if verify.decide({"method": "enclosure"}, piece.factor, whole, domain, False) is not None:
            return f"piece {piece.name}: its factor is not shown >= 0 on the domain"
    if not verify.defined(gap, whole, domain):
        return "the gap is not shown defined on the whole domain"
    terms = [["mul", piece.factor, substitute(piece.gap, piece.substitution)] for piece in pieces]
    difference = ["add", gap, ["mul", ["num", "-1"], ["add", *terms]]]
    if not vanishes_on(difference, whole, domain):
        return "identity: the exact normal form of gap - sum of factor * piece is not 0"
    return None


def check(data: Any) -> verify.Verdict:
    """Re-check a chain certificate (see the module docstring); Malformed when it is not one."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Malformed(f"not a chain certificate: format must be {FORMAT!r}")
    domain = verify.read_domain(data.get("domain"))
    gap = data.get("gap")
    trees.validate(gap, set(domain))
    records = data.get("pieces")
    if not isinstance(records, list):
        raise Malformed("a chain certificate needs a list of pieces")
    pieces = []
    for record in records:
        piece, certificate = read_piece(record, set(domain))
        verdict = verify.check(certificate)
        if not verdict.accepted:
            return verify.Verdict(
                False, f"piece {piece.name}: its certificate is rejected ({verdict.reason})", 0
            )
        pieces.append(piece)
    failure = structure_failure(gap, domain, pieces)
    if failure is not None:
        return verify.Verdict(False, failure, 0)
    return verify.Verdict(
        True, f"{len(pieces)} pieces accepted; ranges, factors' signs and the identity hold", 0
    )
