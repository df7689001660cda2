"""Claim 7: sup |GELU'| <= 1.13; softmax is 1-Lipschitz (l_inf -> l_1; the authors' 2 also holds);
attention on unit rows is C2(Vt)(1 + 2 C2(QK))-Lipschitz (the authors' C2(Vt)(1 + 4 C2(QK)) also holds).

Evidence: (a) the self-checks of theory's GELU, softmax and attention lemmas (theory.lipschitz:
sup GELU' = Phi(sqrt 2) + sqrt 2 phi(sqrt 2) in closed form, certified below 1.13 by interval
arithmetic; the softmax Jacobian identity and its l_inf -> l_1 norm maximised by sympy (kappa = 1); the
attention constant, equal to the exact HEAD_LIPSCHITZ with kappa = 2 and to HEAD_LIPSCHITZ_SHARP with 1);
(b) the constant ``l_phi`` under test compared with the closed-form supremum (evaluated at 30 digits);
(c) a sampled witness: the largest ratio ||softmax(u) - softmax(v)||_1 / ||u - v||_inf over random pairs,
which must not exceed ``softmax_constant`` (default: the derived kappa; sampling can refute, never prove).
Provenance: derived (GELU, softmax constant), standard (attention argument: Edelman et al. 2022).
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from paper_checks.claims._lemmas import check_records, one_line, verdict_of
from paper_checks.registry import Claim, ClaimResult, Verdict
from theory.proxy import L_PHI_VALUE

ID = "7"
TITLE = "sup |GELU'| <= 1.13, softmax is 1-Lipschitz (l_inf -> l_1), attention C2(Vt)(1 + 2 C2(QK))-Lipschitz"


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
    l_phi: object = L_PHI_VALUE, softmax_constant: float | None = None, samples: int = 4000
) -> ClaimResult:
    """Decide claim 7 for the GELU constant ``l_phi`` and the softmax constant (default: derived kappa)."""
    from theory import lipschitz
    from theory.lipschitz import attention_lemma, gelu_derivative_extrema, gelu_lemma, softmax_lemma

    if softmax_constant is None:
        softmax_constant = float(lipschitz.softmax_constant())

    records = check_records([gelu_lemma(), softmax_lemma(), attention_lemma()])
    symbolic = verdict_of(records)
    top, bottom = gelu_derivative_extrema()
    sup_abs = sp.Max(top, -bottom)
    gelu_holds = bool(sp.N(sup_abs - sp.nsimplify(l_phi), 30) <= 0)
    ratio = sampled_softmax_ratio(samples)
    softmax_holds = ratio <= softmax_constant
    verdict = symbolic if gelu_holds and softmax_holds else Verdict.REFUTED
    evidence = (
        f"sup|GELU'| = {sp.N(sup_abs, 12)} vs L_phi = {sp.N(sp.nsimplify(l_phi), 6)}; sampled max softmax "
        f"ratio {ratio:.4f} <= {softmax_constant}: {softmax_holds}; theory: {one_line(records)}"
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
            "sampled_softmax_ratio": ratio,
            "softmax_constant": softmax_constant,
            "checks": records,
        },
    )


CLAIM = Claim(ID, TITLE, lambda context: check())
