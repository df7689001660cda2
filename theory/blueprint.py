"""The blueprint of the assembled bound (reconstructed Theorem 3.1, theory.assembled): its chain as a graph.

Each node is one step of the chain of theory/assembled.py's docstring, with its statement (text and sympy),
provenance, status, reference, Coq evidence and the nodes it depends on. A status is one of

- ``kernel-checked``: proved by a kernel. Either a lemma of ``theorem_3_1.v`` (written by
  ``theory --coq DIR``, checked by coqc: Coq's kernel) or a registered lemma inequality
  (theory.paper_proofs.inequalities) that the prover proved, its certificate re-checked by the project's
  kernel, and exported as ``DIR/<name>.v``, which coqc accepted;
- ``cited``: a published theorem, used in the exact form given in ``reference`` (authors, year, theorem
  number, constants); in ``theorem_3_1.v`` the ones the file uses are the Section's named Hypotheses;
- ``unchecked``: neither (the goal is none).

The sympy statement of every node in ``theorem_3_1.v`` is built from the registry's formulas where the
registry has one (RAMP_LOSS, PEEL_COST, dudley.INTEGRAND, GAP_TERM); tests/unit/theory/test_blueprint.py
reads the Coq statements back from the file and compares both at random points.
Provenance: derived (a structured index of the chain; the mathematics is in the modules it names).
"""

from __future__ import annotations

import functools
import textwrap
from dataclasses import dataclass
from typing import Any

import sympy as sp

KERNEL_CHECKED = "kernel-checked"
CITED = "cited"
UNCHECKED = "unchecked"
STATUSES = (KERNEL_CHECKED, CITED, UNCHECKED)
THEOREM_FILE = "theorem_3_1.v"
"""The Coq file ``theory --coq DIR`` writes for the chain (theory/paper_proofs/theorem_3_1.v)."""
COLOURS = {KERNEL_CHECKED: "#b7e1a1", CITED: "#fde29b", UNCHECKED: "#f4a6a6"}
"""Mermaid fill colour of each status (green, amber, red)."""


@dataclass(frozen=True)
class Node:
    """One step of the chain: ``coq`` is {"file", "lemma"} (a lemma of THEOREM_FILE, or the theorem of a
    registered inequality's file), or {"file", "hypothesis"} for a cited node the Coq theorem assumes."""

    id: str
    text: str
    statement: sp.Basic
    provenance: str
    status: str
    reference: str
    coq: dict[str, str] | None
    depends_on: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The node's record of ``theory --blueprint --json`` (statement as text, sympy and LaTeX)."""
        return {
            "id": self.id,
            "statement": {
                "text": self.text,
                "sympy": sp.srepr(self.statement),
                "str": sp.sstr(self.statement),
                "latex": sp.latex(self.statement),
            },
            "provenance": self.provenance,
            "status": self.status,
            "reference": self.reference,
            "coq": self.coq,
            "depends_on": list(self.depends_on),
        }


def _in_file(lemma: str, *more: str) -> dict[str, str]:
    """A lemma of THEOREM_FILE; ``more``: the file's other lemmas the node also rests on (key ``with``)."""
    return {"file": THEOREM_FILE, "lemma": lemma} | ({"with": ", ".join(more)} if more else {})


def _registered(name: str, reduction: bool = False) -> dict[str, str]:
    """The Coq file(s) ``theory --coq DIR`` writes for the registered inequality ``name`` (theorem
    ``statement``; one file per part of a conjunction; ``reduction``: also NAME_reduction.v, the softmax
    bound for every length), proved by the prover with its certificate re-checked by the kernel."""
    parts = len(_registry_entry(name).statement.inequalities)
    files = f"{name}.v" if parts == 1 else ", ".join(f"{name}_{k}.v" for k in range(1, parts + 1))
    if reduction:
        files += f", {name}_reduction.v"
    return {"file": files, "lemma": "statement", "prover": name}


def _registry_entry(name: str) -> Any:
    from theory.paper_proofs.inequalities import all_lemma_inequalities

    (entry,) = [e for e in all_lemma_inequalities() if e.name == name]
    return entry


def _registry_statement(name: str) -> sp.Basic:
    """The sympy statement of the registered lemma inequality ``name``: each part as gap >= 0 (> 0 when
    strict), their conjunction."""
    parts = _registry_entry(name).statement.inequalities
    return sp.And(*((sp.Gt if part.strict else sp.Ge)(part.gap, 0) for part in parts))


# Symbols of the statements (the Coq names in parentheses where they differ).
s, t, r, a, q, G, W = sp.symbols("s t r a q G W", real=True)
u_unit = sp.Symbol("u", positive=True)
i, k = sp.symbols("i k", integer=True, nonnegative=True)
J = sp.Symbol("J", integer=True, nonnegative=True)
c, dist, size = sp.IndexedBase("c"), sp.IndexedBase("d"), sp.IndexedBase("N")
f_value, f_cover = sp.symbols("f f'", real=True)
d1, d2, rank, points = sp.symbols("d1 d2 k M", positive=True, integer=True)
radius, eps, eps_head, eps_tail, a_w, b_x = sp.symbols("R epsilon epsilon_1 epsilon_2 a_w b_x", positive=True)
log_head, log2_tail, log_matrix = sp.symbols("log_N_head log2_N_tail log_N", nonnegative=True)
CANDES_PLAN_BOUND = (d1 + d2 + 1) * rank * sp.log(9 * radius / eps)
"""Candes & Plan's ln N of the rank-k ball of radius R at eps (the form cited)."""
ZHANG_BOUND = sp.ceiling(36 * (a_w * b_x / eps) ** 2) * sp.log(
    2 * sp.ceiling(4 * a_w * b_x / eps + 2) * points + 1, 2
)
"""Zhang's log2 N_inf at eps on M points (the form cited)."""


@functools.cache
def nodes() -> tuple[Node, ...]:
    """Every node of the chain, cited ones first, the final assembly and its corollary at a margin chosen
    after training last."""
    from theory import assembled, dudley

    margin, n, delta, K, m = assembled.margin, assembled.n, assembled.delta, assembled.K, assembled.m
    ramp = assembled.RAMP_LOSS.expr
    risk, empirical = sp.symbols("P_err Rhat_ramp", nonnegative=True)
    rademacher = sp.Symbol("R_S", nonnegative=True)
    entropy_integral = sp.Symbol("I_a", nonnegative=True)
    j = assembled.j
    p = dudley.p
    return (
        Node(
            "margin_bound",
            "with probability >= 1 - delta, for every network: P(y f(x) <= 0) <= (1/n) sum ramp(y_i f(x_i)) "
            "+ 2 R_S(ramp o F) + 3 sqrt(ln(2/delta)/(2n))",
            sp.Le(risk, empirical + 2 * rademacher + 3 * sp.sqrt(sp.log(2 / delta) / (2 * n))),
            "standard",
            CITED,
            "Mohri, Rostamizadeh & Talwalkar 2018, Foundations of Machine Learning (2nd ed.), Theorem 3.3 "
            "(Rademacher bound for a [0, 1]-valued class: E g <= (1/n) sum g(z_i) + 2 R_S(G) + "
            "3 sqrt(ln(2/delta)/(2n))), applied to G = ramp o F; the 0-1 loss is below the ramp "
            "(node ramp_dominates). Theorem number as cited in theory.dudley; not re-confirmed against "
            "the book here",
            {"file": THEOREM_FILE, "hypothesis": "margin_bound"},
        ),
        Node(
            "dudley",
            "for a [0, 1]-valued class containing 0, every a in (0, 1]: R_S <= 4 a + (12/sqrt n) "
            "int_a^1 sqrt(ln N_inf(u)) du (N_inf: covering number in the sup-over-samples metric)",
            sp.Le(rademacher, 4 * a + 12 / sp.sqrt(n) * entropy_integral),
            "standard",
            CITED,
            "Dudley's entropy integral in the form of Bartlett, Foster & Telgarsky 2017 (NeurIPS), "
            "Lemma A.5: R(F|S) <= inf_alpha (4 alpha/sqrt n + (12/n) int_alpha^sqrt(n) sqrt(ln N(F|S, eps, "
            "l2)) d eps), rescaled to the sup-over-samples metric (eps = sqrt(n) u, alpha = sqrt(n) a); "
            "Dudley 1967. Lemma number as cited in theory.dudley; not re-confirmed against the paper here",
            {"file": THEOREM_FILE, "hypothesis": "dudley"},
        ),
        Node(
            "candes_plan",
            "the rank-k matrices of Frobenius norm <= R in R^{d1 x d2} have an eps-cover (Frobenius) of "
            "size <= (9 R/eps)^{(d1 + d2 + 1) k}",
            sp.Le(log_head, CANDES_PLAN_BOUND),
            "standard",
            CITED,
            "Candes & Plan 2011, Tight oracle inequalities for low-rank matrix recovery from a minimal "
            "number of noisy random measurements, IEEE Trans. Inf. Theory 57(4), Lemma 3.1 (the 9 and the "
            "exponent (d1 + d2 + 1) k taken from the paper as cited in theory.covering; not re-confirmed "
            "against the paper here)",
            {"file": THEOREM_FILE, "hypothesis": "candes_plan"},
        ),
        Node(
            "zhang_maurey",
            "Maurey-type sup-norm cover of a linear class on M points: log2 N_inf(eps) <= "
            "ceil(36 a^2 b^2/eps^2) log2(2 ceil(4 a b/eps + 2) M + 1)",
            sp.Le(log2_tail, ZHANG_BOUND),
            "standard",
            CITED,
            "Zhang 2002, Covering number bounds of certain regularized linear function classes, JMLR 2: "
            "527-550, Theorem 4 (the 36 and the log term as cited in theory.covering and by Bartlett, "
            "Foster & Telgarsky 2017; theorem number not re-confirmed against the paper here)",
            {"file": THEOREM_FILE, "hypothesis": "zhang"},
        ),
        Node(
            "ramp_dominates",
            "1[u <= 0] <= ramp_margin(u) <= 1[u <= margin] for every real u",
            _registry_statement("ramp_between_indicators"),
            "derived",
            KERNEL_CHECKED,
            "theory.assembled.RAMP_LOSS; prover (kernel re-checked) and coqc",
            _registered("ramp_between_indicators"),
        ),
        Node(
            "ramp_lipschitz",
            "|ramp(s) - ramp(t)| <= |s - t| / margin: the ramp loss is (1/margin)-Lipschitz",
            sp.Le(sp.Abs(ramp.subs(assembled.u, s) - ramp.subs(assembled.u, t)), sp.Abs(s - t) / margin),
            "derived",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, ramp_lipschitz (ramp as theory.assembled.RAMP_LOSS)",
            _in_file("ramp_lipschitz"),
        ),
        Node(
            "softmax_constant",
            "||J h||_1 <= ||h||_inf for the softmax Jacobian of every length (kappa = 1)",
            _registry_statement("jacobian_l1_norm_every_length"),
            "derived",
            KERNEL_CHECKED,
            "theory.lipschitz (attention head factor C2(Vt)(1 + 2 C2(QK))); prover and coqc",
            _registered("jacobian_l1_norm_every_length", reduction=True),
        ),
        Node(
            "gelu_lipschitz",
            "|GELU'(x)| <= L_phi = 1.13 for every real x",
            _registry_statement("gelu_derivative_within_l_phi"),
            "derived",
            KERNEL_CHECKED,
            "theory.lipschitz (L_phi in gamma and alpha); prover and coqc",
            _registered("gelu_derivative_within_l_phi"),
        ),
        Node(
            "telescoping",
            "Lipschitz in each matrix (constant c_i = gamma_i alpha_i) gives |f(theta) - f(theta')| <= "
            "sum_{i<K} c_i d_i(theta_i, theta'_i) for theta, theta' in the class",
            sp.Le(sp.Abs(f_value - f_cover), sp.Sum(c[i] * dist[i], (i, 0, assembled.K - 1))),
            "derived",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, telescoping (hybrid networks, one matrix changed at a time)",
            _in_file("telescoping"),
            ("softmax_constant", "gelu_lipschitz"),
        ),
        Node(
            "eps_allocation",
            "the equal split eps_i = margin u / (K c_i) spends the radius: sum_i c_i eps_i = margin u",
            sp.Eq(sp.Sum(c[i] * (margin * u_unit / (K * c[i])), (i, 0, K - 1)), margin * u_unit),
            "derived",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, eps_allocation (theory.assembled.SCALE's K)",
            _in_file("eps_allocation"),
        ),
        Node(
            "proper_cover_factor",
            "an eps-cover of a set by arbitrary points gives a cover by points of the set, no larger, at "
            "radius 2 eps",
            sp.Eq(sp.Symbol("r_proper"), assembled.PROPER_COVER_FACTOR * r),
            "derived",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, proper_cover (theory.assembled.PROPER_COVER_FACTOR)",
            _in_file("proper_cover"),
        ),
        Node(
            "cover_composition",
            "per-matrix covers C_i compose into a cover of the class (their product) at radii eps_i, "
            "ln |prod C_i| = sum_i ln |C_i|",
            sp.Eq(sp.log(sp.Product(size[i], (i, 0, K - 1))), sp.Sum(sp.log(size[i]), (i, 0, K - 1))),
            "derived",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, product_covers and ln_nprod",
            _in_file("ln_nprod"),
            ("telescoping", "eps_allocation", "proper_cover_factor"),
        ),
        Node(
            "head_dimension",
            "Candes-Plan's head count (d1 + d2 + 1) k <= 3 max(d1, d2) k",
            _registry_statement("head_dimension"),
            "derived",
            KERNEL_CHECKED,
            "theory.covering (the 3N k head count of MATRIX_TERM); prover and coqc",
            _registered("head_dimension"),
            ("candes_plan",),
        ),
        Node(
            "tail_prefactor",
            "the Maurey tail's prefactor is <= 144 N^2 sigma^2 (b/eps)^2 (the two halves of the radius)",
            _registry_statement("tail_prefactor_below_144"),
            "derived",
            KERNEL_CHECKED,
            "theory.covering.tail_prefactor; prover and coqc",
            _registered("tail_prefactor_below_144"),
            ("zhang_maurey",),
        ),
        Node(
            "head_tail_split",
            "every matrix of the class is a head (rank <= k) plus a tail: covers of the heads at eps_1 "
            "(Candes-Plan) and of the tails at eps_2 (Zhang) give a cover at eps_1 + eps_2 whose log-size "
            "is the sum of the two cited bounds",
            sp.Le(
                log_matrix,
                CANDES_PLAN_BOUND.subs(eps, eps_head) + ZHANG_BOUND.subs(eps, eps_tail) * sp.log(2),
            ),
            "derived",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, head_tail_cover (Section Head_tail, from the Hypotheses candes_plan and "
            "zhang)",
            _in_file("head_tail_cover"),
            ("candes_plan", "zhang_maurey"),
        ),
        Node(
            "c_p_bounds",
            "the balance constant c_p = (p + 2)/(2^{2/(p+2)} p^{p/(p+2)}) lies in [1, 2]",
            _registry_statement("c_p_in_1_2"),
            "derived",
            KERNEL_CHECKED,
            "theory.interpolation (K_p = c_p 3^{2/(p+2)} 144^{p/(p+2)}); prover and coqc",
            _registered("c_p_in_1_2"),
        ),
        Node(
            "per_matrix_cover",
            "Theorem 4.1 as restated: log N_i(margin u/(K c_i)) <= Lambda MATRIX_TERM_i u^{-2p/(p+2)} "
            "(head by Candes-Plan, tail by Zhang, k = ceil(k*))",
            _registry_statement("theorem_4_1_statement"),
            "derived",
            KERNEL_CHECKED,
            "theory.interpolation and theory.assembled.MATRIX_TERM; the composed covering lemmas at "
            "k = ceil(k*) proved by the prover's chain and coqc. In theorem_3_1.v it is the premise on the "
            "per-matrix covers (entropy B_i u^{-q_i}, B_i = Lambda MATRIX_TERM_i)",
            _registered("theorem_4_1_statement"),
            ("head_tail_split", "head_dimension", "tail_prefactor", "c_p_bounds", "log_factor"),
        ),
        Node(
            "log_factor",
            "Lambda bounds the logarithms of Zhang's and Candes-Plan's covers at every radius >= 1/sqrt(n)",
            _registry_statement("log_factor_dominates"),
            "derived",
            KERNEL_CHECKED,
            "theory.assembled.LOG_FACTOR; prover and coqc",
            _registered("log_factor_dominates"),
        ),
        Node(
            "entropy_exponent",
            "p <= 2 makes the entropy exponent 2p/(p + 2) <= 1, and u^{-q} <= u^{-1} on (0, 1] for "
            "0 <= q <= 1 (the integral converges)",
            sp.Le(u_unit ** (-q), 1 / u_unit),
            "derived",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, entropy_power_bound and entropy_exponent_le_1",
            _in_file("entropy_power_bound"),
        ),
        Node(
            "dudley_integral",
            "int_a^1 u^{-1/2} du = 2 - 2 sqrt(a) <= 2 (Coquelicot's RInt), at the cut-off a = 1/sqrt(n)",
            sp.Eq(
                sp.Integral(dudley.INTEGRAND.subs(p, 2).subs(dudley.u, u_unit), (u_unit, a, 1)),
                2 - 2 * sp.sqrt(a),
            ),
            "derived",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, dudley_integral_closed_form (theory.dudley.INTEGRAND at p = 2)",
            _in_file("dudley_integral_closed_form"),
            ("dudley", "entropy_exponent"),
        ),
        Node(
            "peeling_weights",
            "the peeling weights w(j) = 2/(3(|j|+1)(|j|+2)) over |j| <= J sum to 1 - 4/(3(J + 2)) -> 1",
            sp.Eq(sp.Sum(sp.exp(-assembled.PEEL_COST.expr), (j, -J, J)), 1 - sp.Rational(4, 3) / (J + 2)),
            "derived",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, peeling_weights_partial_sum and peeling_weights_sum_to_1 "
            "(theory.assembled.PEEL_COST = ln(1/w(j)))",
            _in_file("peeling_weights_partial_sum"),
        ),
        Node(
            "grid_count",
            "|P_m^K| = (2m + 1)^K, so the grid costs ln |P_m^K| = K ln(2m + 1)",
            sp.Eq(sp.log((2 * m + 1) ** K), K * sp.log(2 * m + 1)),
            "derived",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, grid_count (theory.assembled.CONFIDENCE_TERM's K ln(2m+1))",
            _in_file("grid_count"),
        ),
        Node(
            "union_bound",
            "confidence delta W / |P_m^K| per grid point and shells: ln(2/delta') = ln(2/delta) + "
            "ln |P_m^K| + ln(1/W), W the product of the peeling weights (P = ln(1/W))",
            sp.Eq(sp.log(2 / (delta * W / G)), sp.log(2 / delta) + sp.log(G) + sp.log(1 / W)),
            "derived",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, confidence_split",
            _in_file("confidence_split"),
            ("peeling_weights", "grid_count"),
        ),
        Node(
            "theorem_3_1",
            "P(y f(x) <= 0) <= (1/n) sum ramp(y_i f(x_i)) + GAP_TERM, GAP_TERM = (8 + 24 sqrt(ln 2) + "
            "48 sqrt(Lambda Sigma))/sqrt(n) + 3 sqrt((ln(2/delta) + K ln(2m+1) + P)/(2n))",
            assembled.bound_statement(),
            "reconstructed",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, theorem_3_1_posthoc (from the Hypotheses margin_bound and dudley; "
            "sum_i B_i = Lambda Sigma); theory.assembled.GAP_TERM",
            _in_file("theorem_3_1_posthoc"),
            (
                "margin_bound",
                "dudley",
                "ramp_dominates",
                "ramp_lipschitz",
                "cover_composition",
                "per_matrix_cover",
                "dudley_integral",
                "union_bound",
            ),
        ),
        Node(
            "margin_union",
            "the bound at a margin gamma in (0, 1] measured after training: at gamma_k = 2^-k, "
            "k = ceil(log2(1/gamma)), so gamma/2 < gamma_k <= gamma, with P + ln(3/2 (k+1)(k+2)) in place "
            "of P; the union's weights 2/(3(k+1)(k+2)) over k = 0..K sum to 2/3 (1 - 1/(K+2)) <= 1, and the "
            "ramp at gamma_k is at most the ramp at gamma pointwise",
            _margin_union_statement(),
            "derived",
            KERNEL_CHECKED,
            "coqc: theorem_3_1.v, theorem_3_1_margin_union (the bound at 2^-k, from theorem_3_1_posthoc) "
            "with margin_weights_partial_sum, margin_weights_total, ramp_margin_monotone and "
            "dyadic_margin_bracket; theory.margin_union (the union over dyadic margins as in Bartlett, "
            "Foster & Telgarsky 2017, Theorem 1.1's proof)",
            _in_file(
                "theorem_3_1_margin_union",
                "margin_weights_partial_sum",
                "margin_weights_total",
                "ramp_margin_monotone",
                "dyadic_margin_bracket",
            ),
            ("theorem_3_1", "union_bound"),
        ),
    )


def _margin_union_statement() -> sp.Basic:
    """theory.assembled's statement at the dyadic margin MARGIN_SHELL(k) = 2^-k with P + PEEL_COST(k)
    (theory.margin_union; k >= 0 the shell index, ceil(log2(1/gamma)) for a measured margin gamma)."""
    from theory import assembled, margin_union

    shell = margin_union.k
    return assembled.bound_statement().subs(
        {
            assembled.P_peel: assembled.P_peel + assembled.PEEL_COST.expr.subs(assembled.j, shell),
            assembled.margin: margin_union.MARGIN_SHELL.expr.subs(assembled.j, shell),
        }
    )


def counts() -> dict[str, int]:
    """Nodes per status."""
    return {status: sum(node.status == status for node in nodes()) for status in STATUSES}


def to_json() -> dict[str, Any]:
    """{"nodes": [...], "counts": {...}, "mermaid": "..."}: the output of ``theory --blueprint --json``."""
    return {"nodes": [node.to_json() for node in nodes()], "counts": counts(), "mermaid": mermaid()}


def mermaid() -> str:
    """The graph as a Mermaid flowchart: one box per node (id, status, statement), an arrow from each
    dependency, filled by status (COLOURS)."""
    lines = ["flowchart BT"]
    for node in nodes():
        label = f"<b>{node.id}</b><br/><i>{node.status}</i><br/>{_escaped(node.text)}"
        lines.append(f'  {node.id}["{label}"]:::{_css(node.status)}')
    for node in nodes():
        for dependency in node.depends_on:
            lines.append(f"  {dependency} --> {node.id}")
    for status in STATUSES:
        lines.append(f"  classDef {_css(status)} fill:{COLOURS[status]},stroke:#555,color:#000")
    return "\n".join(lines)


def _css(status: str) -> str:
    return status.replace("-", "_")


def _escaped(text: str) -> str:
    """``text`` safe inside a quoted Mermaid label, wrapped to lines of about 60 characters."""
    safe = text.replace('"', "'").replace("<", "&lt;").replace(">", "&gt;")
    return "<br/>".join(textwrap.wrap(safe, 60))


def to_text(width: int = 100) -> str:
    """The blueprint for a terminal: one block per node (id, status, statement, reference, Coq, uses)."""
    blocks = []
    for node in nodes():
        where = ""
        if node.coq is not None:
            name = node.coq.get("lemma") or f"Hypothesis {node.coq['hypothesis']}"
            where = f"{node.coq['file']}: {name}" + (
                f" with {node.coq['with']}" if "with" in node.coq else ""
            )
        rows = [f"[{node.status}] {node.id}  ({node.provenance})"]
        rows += textwrap.wrap(node.text, width - 4, initial_indent="    ", subsequent_indent="      ")
        rows += textwrap.wrap(
            f"reference: {node.reference}", width - 4, initial_indent="    ", subsequent_indent="      "
        )
        if where:
            rows += textwrap.wrap(
                f"coq: {where}", width - 4, initial_indent="    ", subsequent_indent="      "
            )
        if node.depends_on:
            rows += textwrap.wrap(
                "uses: " + ", ".join(node.depends_on),
                width - 4,
                initial_indent="    ",
                subsequent_indent="      ",
            )
        blocks.append("\n".join(rows))
    total = counts()
    blocks.append(", ".join(f"{total[status]} {status}" for status in STATUSES) + f" ({len(nodes())} nodes)")
    return "\n\n".join(blocks)


def markdown_graph() -> str:
    """The fenced Mermaid block docs/blueprint.md carries (compared with this function by a test)."""
    return "```mermaid\n" + mermaid() + "\n```"


__all__ = [
    "CITED",
    "KERNEL_CHECKED",
    "STATUSES",
    "THEOREM_FILE",
    "UNCHECKED",
    "Node",
    "counts",
    "markdown_graph",
    "mermaid",
    "nodes",
    "to_json",
    "to_text",
]
