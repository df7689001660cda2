"""specbound's prover against SMT solvers (z3, cvc5) on the soundness suite's generated statements.

The statements and their truth come from tests/helpers/soundness_cases.py (truth fixed by construction and
confirmed by mpmath at 60 digits); specbound runs through the library entry ``specbound prove`` calls
(tests/helpers/soundness_judge.py's :func:`judge`, which also judges its verdict). Each installed peer gets
the statement translated to SMT-LIB 2 in nonlinear real/integer arithmetic (:func:`translate`): + - * /,
integer powers, rational powers and sqrt as an auxiliary r >= 0 with r^q = b^p, Abs, Min, Max, Piecewise
as if-then-else, floor and ceiling by to_int; a statement with a transcendental function or constant (exp,
log, atan, tanh, erf, erfc, Phi, pi, E) is outside the solvers' theory and is counted "not expressible",
never approximated. A peer answers in two queries: is the statement undefined somewhere (a quotient by 0, a
square root of a number < 0... as the language defines it: sat = refused as undefined), then is there a
point where it is defined and the claim fails (unsat = proved, sat = refuted).

Every tool gets the same budget per statement (``--budget`` CPU seconds for specbound; the solvers' own
timeout, which counts wall-clock time, for the peers, so under load a peer gets less CPU, never more). Wrong
answers are judged by the generator's truth: proved a false or undefined statement, refuted a true one,
refused a defined one as undefined (specbound's refutation witnesses are also re-checked by mpmath; the
peers' are not). Printed per family and tool: proved / refuted / undecided / refused / not expressible /
wrong, and the median CPU ratio specbound/peer over the statements both prove, then each statement a peer
proves and specbound does not. Then the start-up measure:
median process CPU of ``specbound prove`` on ``--startup`` easy statements (ones both prove, proved
in-process fastest first) against ``python -c "import z3; ..."`` solving the same translated statements.

Run: ``python benchmarks/prover_peers.py [--count 300] [--seed 40] [--budget 2] [--startup 20]``; the
peers are the optional ``bench`` extra (``pip install -e .[bench]`` in a clone): without one, "z3 not
installed, skipped".
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the soundness suite's generator and judge (tests.helpers)
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tests.helpers.soundness_cases import TRUE, UNDEFINED, Case, Variable, generate  # noqa: E402

TRANSCENDENTAL = frozenset({"exp", "log", "ln", "atan", "tanh", "erf", "erfc", "Phi", "phi", "pi", "E"})
RELATIONS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "="}
ARITHMETIC = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}
VERDICTS = ["proved", "refuted", "undecided", "refused", "not expressible", "error", "wrong"]


class NotExpressible(ValueError):
    """The statement uses a function or constant outside nonlinear real/integer arithmetic."""


@dataclass
class Smt:
    """A statement over its domain in SMT-LIB 2: ``assumptions`` (the domain, the auxiliaries' definitions),
    ``defined`` (where the statement is defined) and the ``claim``."""

    declarations: list[str]
    assumptions: list[str]
    defined: str
    claim: str

    def refute_query(self) -> str:
        """sat iff some point of the domain where the statement is defined falsifies the claim."""
        lines = [*self.declarations, *self.assumptions, self.defined, f"(not {self.claim})"]
        return "\n".join(line if line.startswith("(declare") else f"(assert {line})" for line in lines)

    def undefined_query(self) -> str | None:
        """sat iff the statement is undefined somewhere on the domain (None: defined everywhere by form)."""
        if self.defined == "true":
            return None
        lines = [*self.declarations, *self.assumptions, f"(not {self.defined})"]
        return "\n".join(line if line.startswith("(declare") else f"(assert {line})" for line in lines)


def literal(value: Fraction) -> str:
    """A rational as an SMT-LIB real."""
    if value < 0:
        return f"(- {literal(-value)})"
    if value.denominator == 1:
        return f"{value.numerator}.0"
    return f"(/ {value.numerator}.0 {value.denominator}.0)"


def conjunction(parts: list[str]) -> str:
    parts = [p for p in parts if p != "true"]
    return "true" if not parts else parts[0] if len(parts) == 1 else f"(and {' '.join(parts)})"


def _under(path: list[str], formula: str) -> str:
    """``formula`` where the path condition holds (a Piecewise branch's)."""
    return formula if not path else f"(=> {conjunction(path)} {formula})"


def _product(factor: str, n: int) -> str:
    return factor if n == 1 else f"(* {' '.join([factor] * n)})"


def _constant(node: ast.expr) -> Fraction:
    """The rational value of a constant exponent such as (-1/2)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return Fraction(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_constant(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return _constant(node.left) / _constant(node.right)
    raise NotExpressible("a power whose exponent is not a rational number")


class _Translator:
    """Terms of the language to SMT-LIB terms, collecting definedness conditions and auxiliaries."""

    def __init__(self, variables: tuple[Variable, ...]) -> None:
        self.variables = {v.name: v for v in variables}
        self.declarations = [f"(declare-fun {v.name} () {'Int' if v.integer else 'Real'})" for v in variables]
        self.definitions: list[str] = []
        self.conditions: list[str] = []

    def read(self, text: str) -> str:
        node = ast.parse(text.replace("^", "**"), mode="eval").body
        return self.term(node, [])

    def require(self, path: list[str], condition: str) -> None:
        self.conditions.append(_under(path, condition))

    def auxiliary(self) -> str:
        name = f"aux{len(self.declarations)}"
        self.declarations.append(f"(declare-fun {name} () Real)")
        return name

    def term(self, node: ast.expr, path: list[str]) -> str:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return literal(Fraction(node.value))
        if isinstance(node, ast.Name):
            if node.id in TRANSCENDENTAL:
                raise NotExpressible(node.id)
            variable = self.variables[node.id]
            return f"(to_real {node.id})" if variable.integer else node.id
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            inner = self.term(node.operand, path)
            return f"(- {inner})" if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Pow):
                return self.power(self.term(node.left, path), _constant(node.right), path)
            left, right = self.term(node.left, path), self.term(node.right, path)
            if isinstance(node.op, ast.Div):
                self.require(path, f"(not (= {right} 0.0))")
                return f"(/ {left} {right})"
            return f"({ARITHMETIC[type(node.op)]} {left} {right})"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return self.call(node.func.id, node.args, path)
        raise ValueError(f"not in the language: {ast.dump(node)}")

    def call(self, name: str, args: list[ast.expr], path: list[str]) -> str:
        if name in TRANSCENDENTAL:
            raise NotExpressible(name)
        if name == "Piecewise":
            return self.piecewise(args, path)
        a = [self.term(arg, path) for arg in args]
        if name == "sqrt":
            return self.power(a[0], Fraction(1, 2), path)
        if name == "Abs":
            return f"(ite (>= {a[0]} 0.0) {a[0]} (- {a[0]}))"
        if name in ("Max", "Min"):
            return f"(ite ({'>=' if name == 'Max' else '<='} {a[0]} {a[1]}) {a[0]} {a[1]})"
        if name == "floor":
            return f"(to_real (to_int {a[0]}))"
        if name == "ceiling":
            return f"(- (to_real (to_int (- {a[0]}))))"
        raise ValueError(f"not in the language: {name}")

    def power(self, base: str, exponent: Fraction, path: list[str]) -> str:
        """base^exponent as the language defines it: a < 0 needs an integer exponent, 0 a positive one; a
        rational p/q (q > 1) is an auxiliary r >= 0 with r^q = base^p (r^q base^-p = 1 for p < 0)."""
        p, q = exponent.numerator, exponent.denominator
        if q == 1:
            if p > 0:
                return _product(base, p)
            self.require(path, f"(not (= {base} 0.0))")
            return "1.0" if p == 0 else f"(/ 1.0 {_product(base, -p)})"
        guard = f"(>= {base} 0.0)" if p > 0 else f"(> {base} 0.0)"
        self.require(path, guard)
        r = self.auxiliary()
        equation = (
            f"(= {_product(r, q)} {_product(base, p)})"
            if p > 0
            else f"(= (* {_product(r, q)} {_product(base, -p)}) 1.0)"
        )
        self.definitions.append(_under([*path, guard], f"(and (>= {r} 0.0) {equation})"))
        return r

    def relation(self, node: ast.expr, path: list[str]) -> str:
        if isinstance(node, ast.Constant) and node.value is True:
            return "true"
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right = self.term(node.left, path), self.term(node.comparators[0], path)
            return f"({RELATIONS[type(node.ops[0])]} {left} {right})"
        raise ValueError(f"not a condition of the language: {ast.dump(node)}")

    def piecewise(self, pieces: list[ast.expr], path: list[str]) -> str:
        """The first piece whose condition holds; each condition read where the earlier ones failed, each
        value where its condition selects it; undefined where no condition holds."""
        branches, failed = [], []
        for piece in pieces:
            if not (isinstance(piece, ast.Tuple) and len(piece.elts) == 2):
                raise ValueError("a Piecewise piece is (value, condition)")
            condition = self.relation(piece.elts[1], [*path, *failed])
            value = self.term(piece.elts[0], [*path, *failed, condition])
            branches.append((condition, value))
            failed.append(f"(not {condition})")
        if branches[-1][0] != "true":
            self.require(path, f"(or {' '.join(c for c, _ in branches)})")
            branches.append(("true", "0.0"))  # never selected where the statement is defined
        result = branches[-1][1]
        for condition, value in reversed(branches[:-1]):
            result = f"(ite {condition} {value} {result})"
        return result


def _domain(variable: Variable) -> list[str]:
    def bound(value: Fraction) -> str:
        if variable.integer:
            return str(value.numerator) if value >= 0 else f"(- {-value.numerator})"
        return literal(value)

    parts = []
    if variable.lo is not None:
        parts.append(f"({'>' if variable.lo_open else '>='} {variable.name} {bound(variable.lo)})")
    if variable.hi is not None:
        parts.append(f"({'<' if variable.hi_open else '<='} {variable.name} {bound(variable.hi)})")
    return parts


def translate(case: Case) -> Smt:
    """The case in SMT-LIB 2 (raises :class:`NotExpressible` outside nonlinear real/integer arithmetic)."""
    translator = _Translator(case.variables)
    left, right = translator.read(case.left.text), translator.read(case.right.text)
    domain = [part for v in case.variables for part in _domain(v)]
    return Smt(
        translator.declarations,
        domain + translator.definitions,
        conjunction(translator.conditions),
        f"({case.relation} {left} {right})",
    )


# --- the peers -----------------------------------------------------------------------------------------


def z3_check(query: str, seconds: float) -> str:
    """z3's answer ("sat", "unsat", "unknown") within ``seconds`` (its timeout: wall-clock)."""
    import z3

    solver = z3.Solver()
    solver.set("timeout", max(1, int(seconds * 1000)))
    solver.from_string(query)
    return str(solver.check())


def cvc5_check(query: str, seconds: float) -> str:
    """cvc5's answer ("sat", "unsat", "unknown") within ``seconds`` (tlimit-per: wall-clock)."""
    import cvc5

    manager = cvc5.TermManager()
    solver = cvc5.Solver(manager)
    solver.setOption("tlimit-per", str(max(1, int(seconds * 1000))))
    solver.setLogic("ALL")
    symbols = cvc5.SymbolManager(manager)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, query, "query")
    while not (command := parser.nextCommand()).isNull():
        command.invoke(solver, symbols)
    result = solver.checkSat()
    return "sat" if result.isSat() else "unsat" if result.isUnsat() else "unknown"


PEERS: dict[str, tuple[str, Callable[[str, float], str]]] = {
    "z3": ("z3", z3_check),
    "cvc5": ("cvc5", cvc5_check),
}
"""Peer name: (module, check)."""


@dataclass
class Answer:
    verdict: str
    cpu: float = 0.0
    wrong: bool = False


def ask_peer(check: Callable[[str, float], str], case: Case, budget: float) -> Answer:
    """The peer's verdict on the case within ``budget`` seconds (both queries), judged by the case's truth."""
    try:
        smt = translate(case)
    except NotExpressible:
        return Answer("not expressible")
    start = time.process_time()
    try:
        undefined = smt.undefined_query()
        first = "unsat" if undefined is None else check(undefined, budget)
        if first == "sat":
            verdict = "refused"
        elif first != "unsat":
            verdict = "undecided"
        else:
            left = max(0.01, budget - (time.process_time() - start))
            verdict = {"unsat": "proved", "sat": "refuted"}.get(check(smt.refute_query(), left), "undecided")
    except Exception:  # a solver's own failure on a query is reported, not a verdict
        return Answer("error", time.process_time() - start)
    cpu = time.process_time() - start
    wrong = (
        (verdict == "proved" and case.truth != TRUE)
        or (verdict == "refuted" and case.truth == TRUE)
        or (verdict == "refused" and case.truth != UNDEFINED)
    )
    return Answer(verdict, cpu, wrong)


def ask_specbound(case: Case, budget: float, solver: bool = False) -> Answer:
    """specbound's verdict through the soundness judge (the library entry of ``specbound prove``); with
    ``solver``, z3 may propose witnesses and split points that specbound checks itself."""
    from tests.helpers.soundness_judge import judge

    start = time.process_time()
    outcome = judge(case, budget, 10**9, solver)  # the CPU budget, not a box count, ends the search
    verdict = "error" if outcome.verdict == "crashed" else outcome.verdict
    return Answer(verdict, time.process_time() - start, bool(outcome.wrong))


# --- the report ----------------------------------------------------------------------------------------


@dataclass
class Run:
    cases: list[Case]
    answers: dict[str, list[Answer]] = field(default_factory=dict)


def table(run: Run, tool: str) -> str:
    """Per family: the tool's verdicts, wrong answers, and (peers) the median CPU ratio specbound/tool over
    the statements both prove."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    ratios: dict[str, list[float]] = defaultdict(list)
    for i, case in enumerate(run.cases):
        answer = run.answers[tool][i]
        for family in (case.family, "**all**"):
            counts[family][answer.verdict] += 1
            counts[family]["wrong"] += answer.wrong
            counts[family]["generated"] += 1
            ours = run.answers["specbound"][i]
            if not tool.startswith("specbound") and answer.verdict == ours.verdict == "proved":
                ratios[family].append(ours.cpu / max(answer.cpu, 1e-6))
    ours = tool.startswith("specbound")
    columns = ["generated", *(v for v in VERDICTS if not ours or v != "not expressible")]
    header = f"| {tool}: family | " + " | ".join(columns) + " |"
    if not ours:
        header += " both prove | median CPU specbound/" + tool + " |"
    lines = [header, "| --- |" + " ---: |" * (len(columns) + (0 if ours else 2))]
    for family in [*dict.fromkeys(c.family for c in run.cases), "**all**"]:
        row = f"| {family} | " + " | ".join(str(counts[family][c]) for c in columns) + " |"
        if not ours:
            both = ratios[family]
            row += f" {len(both)} | {statistics.median(both):.2f} |" if both else " 0 | - |"
        lines.append(row)
    return "\n".join(lines)


def proposals(run: Run) -> str:
    """specbound alone against specbound with z3 proposing: statements decided only with the proposals
    (and only without them), and the CPU of each run."""
    alone, helped = run.answers["specbound"], run.answers["specbound+z3"]
    before = [answer.verdict in ("proved", "refuted") for answer in alone]
    after = [answer.verdict in ("proved", "refuted") for answer in helped]
    gained = [i for i in range(len(run.cases)) if after[i] and not before[i]]
    lost = [i for i in range(len(run.cases)) if before[i] and not after[i]]
    lines = [
        f"z3 proposing: {len(gained)} undecided statements decided ({len(lost)} decided only without it); "
        f"CPU {sum(a.cpu for a in alone):.1f} s alone, {sum(a.cpu for a in helped):.1f} s with proposals"
    ]
    for i in gained + lost:
        case = run.cases[i]
        change = f"{alone[i].verdict} -> {helped[i].verdict}"
        lines.append(f"  {change}: [{case.family}] {case.statement} over {case.domain}")
    return "\n".join(lines)


def startup(run: Run, count: int) -> str:
    """Median process CPU of ``specbound prove`` and of ``python -c "import z3" + solve`` on ``count``
    statements both prove (specbound's fastest first), each process once after a warm-up of each; the
    process has the command's default budget (its start-up counts against ``--budget``)."""
    from scale_speed import process_seconds

    both = [
        i
        for i, case in enumerate(run.cases)
        if run.answers["specbound"][i].verdict == "proved" and run.answers["z3"][i].verdict == "proved"
    ]
    chosen = sorted(both, key=lambda i: run.answers["specbound"][i].cpu)[:count]
    if not chosen:
        return "start-up: no statement both prove"
    solve = "import sys, z3; s = z3.Solver(); s.from_string(sys.argv[1]); print(s.check())"
    commands = []
    for i in chosen:
        case = run.cases[i]
        ours = ["-m", "paper_checks.cli", "prove", case.statement, "--domain", case.domain, "--quiet"]
        commands.append((ours, ["-c", solve, translate(case).refute_query()]))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="prover-peers-pycache-") as pycache:
        os.environ["PYTHONPYCACHEPREFIX"] = pycache
        process_seconds(commands[0][0])  # warm-up: bytecode written, files in the page cache
        process_seconds(commands[0][1])
        ours_cpu, z3_cpu = [], []
        for specbound_command, z3_command in commands:
            ours_cpu.append(process_seconds(specbound_command)[1])
            z3_cpu.append(process_seconds(z3_command)[1])
    a, b = statistics.median(ours_cpu), statistics.median(z3_cpu)
    return (
        f"start-up on {len(chosen)} easy statements (both prove), median process CPU: "
        f'specbound prove {a:.3f} s, python -c "import z3" + solve {b:.3f} s, ratio specbound/z3 {a / b:.2f} '
        "(issue target: prove <= 0.25 s)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="generated statements (300)")
    parser.add_argument("--seed", type=int, default=40, help="the generator's seed (40)")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds per statement and tool (2)")
    parser.add_argument(
        "--startup", type=int, default=20, help="easy statements of the start-up measure (20)"
    )
    parser.add_argument(
        "--solver",
        action="store_true",
        help="also run specbound with z3 proposing witnesses and split points (the solver extra)",
    )
    parser.add_argument("--peers", default="z3,cvc5", help="peers to run, comma-separated, or none")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    start = time.process_time()
    run = Run(list(generate(args.count, args.seed)))
    run.answers["specbound"] = [ask_specbound(case, args.budget) for case in run.cases]
    print(table(run, "specbound"), end="\n\n")
    if args.solver and importlib.util.find_spec("z3") is not None:
        run.answers["specbound+z3"] = [ask_specbound(case, args.budget, True) for case in run.cases]
        print(table(run, "specbound+z3"), end="\n\n")
        print(proposals(run), end="\n\n")
    for name, (module, check) in PEERS.items():
        if name not in args.peers.split(","):
            continue
        if importlib.util.find_spec(module) is None:
            print(f"{name} not installed, skipped\n")
            continue
        run.answers[name] = [ask_peer(check, case, args.budget) for case in run.cases]
        print(table(run, name), end="\n\n")
        for i, case in enumerate(run.cases):
            if run.answers[name][i].verdict == "proved" != run.answers["specbound"][i].verdict:
                print(f"  proved by {name}, {run.answers['specbound'][i].verdict} by specbound: ", end="")
                print(f"[{case.family}] {case.statement} over {case.domain}")
        print()
    if "z3" in run.answers and args.startup > 0:
        print(startup(run, args.startup))
    print(
        f"seed {args.seed}, {args.count} statements, {args.budget} s per statement and tool; "
        f"{os.cpu_count()} cores, load average {load:.1f} before, {os.getloadavg()[0]:.1f} after; "
        f"{time.process_time() - start:.0f} CPU s in this process"
    )
    wrong = sum(a.wrong for tool in ("specbound", "specbound+z3") for a in run.answers.get(tool, []))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
