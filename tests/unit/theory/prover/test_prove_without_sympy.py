"""``prove`` on a statement of sums of monomials reads it without sympy (theory.prover.monomials), and gives
the gap tree, the verdict and the certificate sympy's reading gives.

The reference for every tree is sympy itself: the same text parsed by the sympy back end, written with
``to_tree``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
import sympy as sp

from tests.helpers.paths import ROOT
from theory.prover import prove_statement
from theory.prover.domain import parse_domain
from theory.prover.language import parse_typed_expression, read_inequalities, to_tree
from theory.prover.monomials import ASSUMPTIONS, Monomials, assumption_count, tree
from theory.prover.statement import parse_statement

DOMAIN = "x: [0, 1], y: real, z: (0, oo), n: integer >= 1, w: <= 0, v: integer in [-5, -1], u: < 0"
PROBE = """
import contextlib, io, json, sys
from paper_checks.cli import main
output = io.StringIO()
with contextlib.redirect_stdout(output):
    status = main(["prove", sys.argv[1], "--domain", sys.argv[2], "--json", "--quiet"])
heavy = [name for name in ("sympy", "numpy", "mpmath") if name in sys.modules]
print(json.dumps({"status": status, "heavy": heavy, "result": json.loads(output.getvalue())}))
"""


def _side(rng: random.Random, names: list[str], depth: int) -> str:
    """A random side over the names: numbers (integers, fractions, decimals), + - * / and powers."""
    if depth == 0 or rng.random() < 0.25:
        if rng.random() < 0.55:
            return rng.choice(names)
        return rng.choice(["0", "1", "2", "3", "1/2", "0.25", "-1", "7/3", "10"])
    a, b = _side(rng, names, depth - 1), _side(rng, names, depth - 1)
    form = rng.choice(["{a} + {b}", "{a} - {b}", "{a}*{b}", "{a}/{b}", "({a})*({b})", "-({a})", "({a})^{n}"])
    return form.format(a=a, b=b, n=rng.choice(["2", "3", "-1", "0", "1", "(-2)"]))


def test_the_polynomial_back_end_gives_sympys_tree_of_every_side_it_reads():
    domain = parse_domain(DOMAIN)
    symbols = domain.symbols()
    counts = {v.name: assumption_count(v.assumptions()) for v in domain.variables}
    rng = random.Random(48)
    read = 0
    for _ in range(400):
        text = _side(rng, list(domain.names), 4)
        ((_, left, _, _),) = read_inequalities(f"{text} <= 0", Monomials(domain.names))
        try:
            reference = parse_typed_expression(text, symbols).expr
        except Exception:  # sympy refuses it (1/0): the polynomial back end must not have read it
            assert left.expr is None, text
            continue
        if left.expr is not None:
            read += 1
            assert tree(left.expr, counts) == to_tree(reference), text
    assert read > 150  # most generated sides are sums of monomials


def test_the_assumption_counts_are_sympys():
    for (integer, sign), count in ASSUMPTIONS.items():
        keywords = {"real": True, **({"integer": True} if integer else {}), **({sign: True} if sign else {})}
        assert len(sp.Symbol("t", **keywords)._assumptions0) == count


@pytest.mark.parametrize(
    ("text", "domain"),
    [
        ("x <= x + 1", "x: [0, 1]"),
        ("x^2 + 1 >= 2*x", "x: real"),
        ("x*y <= 1 and x + y >= 0", "x: [0, 1], y: [0, 1]"),
        ("2*(a - b)^2 >= 0", "a: [0, 2], b: [-1, 1]"),  # a power of a sum: its typed tree, sympy's too
        ("x^3 - x > -1", "x: [0, 1]"),
    ],
)
def test_prove_gives_the_certificate_of_sympys_reading(text, domain):
    parsed = parse_domain(domain)
    fast = prove_statement(parse_statement(text, parsed, symbolic=False), 20)
    reference = prove_statement(parse_statement(text, parsed), 20)
    assert (
        [part.status for part in fast.parts]
        == [part.status for part in reference.parts]
        == ["proved"] * len(fast.parts)
    )
    certificates = [json.dumps(part.certificate.to_json()) for part in (*fast.parts, *reference.parts)]
    assert certificates[: len(fast.parts)] == certificates[len(fast.parts) :]


def test_prove_on_an_easy_statement_imports_no_sympy_numpy_or_mpmath():
    probe = subprocess.run(
        [sys.executable, "-c", PROBE, "x^2 + 1 >= 2*x", "x: [-2, 3]"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    found = json.loads(probe.stdout)
    assert found["status"] == 0 and found["result"]["status"] == "proved"
    assert found["heavy"] == []
