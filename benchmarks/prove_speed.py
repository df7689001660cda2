"""The prover on its reference suites and on the lemma chain: boxes, CPU seconds, check / prove ratios.

For every statement of :data:`theory.prover.classical.TRUE_SUITE`, :data:`~theory.prover.classical.
NEAR_MISSES` and every lemma inequality of :mod:`theory.paper_proofs.inequalities`: the verdict, the
boxes examined, the CPU seconds of the search and, for proofs, the CPU seconds of the kernel's re-check and
the ratio check / prove. Both start from scratch: the prover's caches and sympy's global cache are cleared
before each (otherwise the second would reuse derivatives the first computed). The checker re-reads the
domain and the gap from the certificate's text, a fixed cost of a few milliseconds that dominates for
statements found in under 5 ms. The last lines give the total for the lemma chain (target: under 180 s
on 2 cores) and the check / prove ratio over all proofs (target: below 1), with the per-statement largest
and median. A statement decided as a chain (Theorem 4.1's) gets one row per piece and one for the whole
(building the chain counted in its prove seconds, the chain checker in its check seconds).
Run: ``python3 benchmarks/prove_speed.py``.
"""

from __future__ import annotations

import time

from sympy.core.cache import clear_cache

from theory.paper_proofs.inequalities import all_lemma_inequalities
from theory.prover import check_certificate, parse_domain, parse_statement, prove_statement
from theory.prover.classical import NEAR_MISSES, TRUE_SUITE
from theory.prover.kernel import verify


def from_scratch() -> None:
    """Clear the kernel's cache of exact normal forms and sympy's global cache."""
    verify.clear_cache()
    clear_cache()


def measure(name: str, statement) -> tuple[float, float | None]:
    """Prove one statement and re-check its certificates; print one row; return (prove s, check s)."""
    from_scratch()
    start = time.process_time()
    result = prove_statement(statement, budget_seconds=120)
    prove_s = time.process_time() - start
    check_s = None
    if result.status == "proved":
        from_scratch()
        start = time.process_time()
        accepted = all(check_certificate(p.certificate.to_json()).accepted for p in result.parts)
        check_s = time.process_time() - start
        assert accepted, f"the checker rejected the certificate of {name}"
    _print_row(name, result.status, result.boxes, prove_s, check_s)
    return prove_s, check_s


def _print_row(name: str, status: str, boxes: int, prove_s: float, check_s: float | None) -> None:
    """One table row: verdict, boxes, prove and check seconds and their ratio ("-" where not checked)."""
    ratio = f"{check_s / prove_s:6.3f}" if check_s is not None and prove_s > 0 else "     -"
    check_text = f"{check_s:7.3f}" if check_s is not None else "      -"
    print(f"{name:40s} {status:9s} {boxes:6d} {prove_s:8.3f} {check_text} {ratio}")


def measure_chain(name: str, build) -> tuple[float, float | None]:
    """Build and prove a chain statement, re-check its chain certificate; one row per piece and one for
    the whole (building the chain, i.e. the sympy balance, is counted in the prove seconds)."""
    from theory.prover.chain import check_chain, prove_chain

    from_scratch()
    start = time.process_time()
    result = prove_chain(build())
    prove_s = time.process_time() - start
    for piece in result.pieces:
        row = piece.to_json()
        print(f"  piece {row['name'][:32]:32s} {row['status']:9s} {row['boxes']:6d} {row['seconds']:8.3f}")
    check_s = None
    certificate = result.certificate()
    if certificate is not None:
        from_scratch()
        start = time.process_time()
        accepted = check_chain(certificate).accepted
        check_s = time.process_time() - start
        assert accepted, f"the checker rejected the chain certificate of {name}"
    _print_row(name, result.status, result.boxes, prove_s, check_s)
    return prove_s, check_s


def main() -> int:
    header = f"{'statement':40s} {'verdict':9s} {'boxes':>6s} {'prove s':>8s} {'check s':>7s} {'ratio':>6s}"
    ratios: list[float] = []
    totals = [0.0, 0.0]
    for title, suite in (("true suite", TRUE_SUITE), ("near-miss suite", NEAR_MISSES)):
        print(f"\n{title} (CPU seconds)\n{header}")
        for name, text, domain_text in suite:
            prove_s, check_s = measure(name, parse_statement(text, parse_domain(domain_text)))
            if check_s is not None:
                ratios.append(check_s / prove_s)
                totals[0] += prove_s
                totals[1] += check_s
    print(f"\nlemma chain (CPU seconds)\n{header}")
    total = 0.0
    for entry in all_lemma_inequalities():
        name = f"{entry.lemma}.{entry.name}"[-40:]
        if entry.chain is not None:
            prove_s, check_s = measure_chain(name, entry.chain)
        else:
            prove_s, check_s = measure(name, entry.statement)
        total += prove_s + (check_s or 0.0)
        if check_s is not None:
            ratios.append(check_s / prove_s)
            totals[0] += prove_s
            totals[1] += check_s
    print(f"\nlemma chain: prove + check {total:.2f} CPU s (target < 180 s)")
    found, checked = totals
    print(f"check / prove over all proofs: {checked:.3f} s / {found:.3f} s = {checked / found:.3f}")
    print(f"per statement: largest ratio {max(ratios):.3f}, median {sorted(ratios)[len(ratios) // 2]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
