"""Claim 7: sup |GELU'| <= 1.13; softmax is 1-Lipschitz (l_inf -> l_1; the authors' 2 also holds);
attention on unit rows is C2(Vt)(1 + 2 C2(QK))-Lipschitz (the authors' C2(Vt)(1 + 4 C2(QK)) also holds).

Evidence: (a) the self-checks of theory's GELU, softmax and attention lemmas (theory.lipschitz:
sup GELU' = Phi(sqrt 2) + sqrt 2 phi(sqrt 2) in closed form, certified below 1.13 by interval
arithmetic; the softmax Jacobian identity and its l_inf -> l_1 norm maximised by sympy (kappa = 1); the
attention constant, equal to the exact HEAD_LIPSCHITZ with kappa = 2 and to HEAD_LIPSCHITZ_SHARP with 1);
(b) the chain sup|GELU'| <= L_phi <= 1.13: the closed-form supremum (evaluated at 30 digits) against the
constant ``l_phi`` the proxies evaluate (theory.proxy.L_PHI_VALUE), and that constant against the number
the claim states, :data:`STATED_GELU_BOUND` (a proxy built on a larger constant, say 1.2, does not
evaluate the claimed 1.13 and refutes the claim; one below the supremum would be unsound);
(c) a sampled witness: the largest ratio ||softmax(u) - softmax(v)||_1 / ||u - v||_inf over random pairs,
which must not exceed ``softmax_constant`` (default: the derived kappa; sampling can refute, never prove).
Provenance: derived (GELU, softmax constant), standard (attention argument: Edelman et al. 2022).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy as sp

from paper_checks.claims._lemmas import check_records, one_line, verdict_of
from paper_checks.registry import Claim, ClaimResult, Verdict
from theory.lemma import Lemma
from theory.proxy import L_PHI_VALUE

ID = "7"
STATED_GELU_BOUND = sp.Rational(113, 100)
"""The number claim 7 states (exact: the authors' L_phi); compared with, not taken from, the proxy's."""
TITLE = (
    f"sup |GELU'| <= {float(STATED_GELU_BOUND)} and softmax is 1-Lipschitz (l_inf -> l_1); the attention "
    "constant C2(Vt)(1 + 2 C2(QK)) is the cited lemma's, matched to the proxies' formula, not proved here"
)


def sampled_softmax_ratio(samples: int = 4000, tokens: int = 6, seed: int = 0) -> float:
    """max ||softmax(u) - softmax(v)||_1 / ||u - v||_inf over random (u, v), nearby and far pairs."""
    rng = np.random.default_rng(seed)
    u = rng.normal(scale=3.0, size=(samples, tokens))
    step = rng.normal(size=(samples, tokens)) * np.exp(rng.uniform(-6, 1, size=(samples, 1)))
    v = u + step

    def softmax(z: np.ndarray) -> np.ndarray:
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    ratios = np.abs(softmax(u) - softmax(v)).sum(axis=1) / np.abs(step).max(axis=1)
    return float(ratios.max())


def check(
    l_phi: object = L_PHI_VALUE,
    softmax_constant: float | None = None,
    samples: int = 4000,
    lemmas: Sequence[Lemma] | None = None,
) -> ClaimResult:
    """Decide claim 7: sup|GELU'| <= ``l_phi`` (the proxies' constant) <= STATED_GELU_BOUND, the sampled
    softmax ratio <= ``softmax_constant`` (default: the derived kappa), and the self-checks of ``lemmas``
    (default: theory's GELU, softmax and attention lemmas; an undecided check makes the verdict open)."""
    from theory import lipschitz
    from theory.lipschitz import attention_lemma, gelu_derivative_extrema, gelu_lemma, softmax_lemma

    if softmax_constant is None:
        softmax_constant = float(lipschitz.softmax_constant())
    if lemmas is None:
        lemmas = [gelu_lemma(), softmax_lemma(), attention_lemma()]
    records = check_records(lemmas)
    symbolic = verdict_of(records)
    top, bottom = gelu_derivative_extrema()
    sup_abs = sp.Max(top, -bottom)
    constant = sp.nsimplify(l_phi)
    sound = bool(sp.N(sup_abs - constant, 30) <= 0)
    as_stated = bool(constant <= STATED_GELU_BOUND)
    ratio = sampled_softmax_ratio(samples)
    softmax_holds = ratio <= softmax_constant
    verdict = symbolic if sound and as_stated and softmax_holds else Verdict.REFUTED
    evidence = (
        f"sup|GELU'| = {sp.N(sup_abs, 12)} <= L_phi = {sp.N(constant, 6)}: {sound}; L_phi <= stated "
        f"{sp.N(STATED_GELU_BOUND, 6)}: {as_stated}; sampled max softmax ratio {ratio:.4f} <= "
        f"{softmax_constant}: {softmax_holds}; attention: the cited constant (Edelman et al. 2022, "
        "standard) compared with the formula the proxies evaluate, not re-proved; "
        f"theory: {one_line(records)}"
    )
    return ClaimResult(
        ID,
        TITLE,
        verdict,
        "derived (sympy + interval arithmetic, GELU; sympy, softmax constant); standard (attention argument)",
        evidence,
        {
            "sup_gelu_derivative": str(top),
            "inf_gelu_derivative": str(bottom),
            "l_phi": str(l_phi),
            "stated_bound": str(STATED_GELU_BOUND),
            "sup_abs_gelu_derivative": float(sp.N(sup_abs, 20)),
            "sampled_softmax_ratio": ratio,
            "softmax_constant": softmax_constant,
            "checks": records,
        },
    )


CLAIM = Claim(ID, TITLE, lambda context: check())
