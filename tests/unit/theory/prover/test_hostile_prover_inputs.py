"""Hostile statements, domains, options, derivation files and certificates for ``prove``, ``derive`` and
``growth`` (issue 44, items 3, 4 and 8): every number is read by one bounded reader
(:mod:`theory.prover.numbers`), the parser's nesting stops below Python's recursion limit, a budget is kept
by the whole process (:mod:`theory.prover.cpu_budget`), and a derivation file cannot print control
characters or read outside its folder. The fast cases call ``main`` in-process and assert one line on stderr
and the exit status; the budget cases run a subprocess under a timeout (a hang fails the test) and are slow.
"""

from __future__ import annotations

import json
import os
import time

import pytest

from tests.helpers.hostile_files import assert_error_line, call, run_cli

pytest.importorskip("flint", reason="the prover needs python-flint")

DOMAIN = ["--domain", "x: [0, 1]"]
HEADER = '[variables]\nx = "[0, 1]"\n'


def derivation(tmp_path, text, name="d.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def steps(first, relation, second, extra=""):
    return f'[[steps]]\nexpr = "{first}"\n[[steps]]\nrelation = "{relation}"\nexpr = "{second}"\n{extra}'


# ---------------------------------------------------------------- 3. numbers and budgets


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["prove", "x >= 0", "--domain", "x: [0, 1e300/1e-300]"], "out of range"),
        (["prove", "x >= 0", "--domain", "x: [0, 1e999999999]"], "out of range"),
        (["prove", "x >= 0", "--domain", "x: [1e-300/1e300, 1]"], "out of range"),
        (["growth", "L", "--versus", "L^2", "--in", "L", "--from", "1e1000000000"], "out of range"),
        (["growth", "L", "--versus", "L^2", "--in", "L", "--from", "1/0"], "not a rational number"),
        (["prove", "x >= 0", *DOMAIN, "--budget", "inf"], "--budget=inf"),
        (["prove", "x >= 0", *DOMAIN, "--budget", "nan"], "--budget=nan"),
        (["prove", "x >= 0", *DOMAIN, "--budget", "1e999"], "--budget=inf"),
        (["prove", "x >= 0", *DOMAIN, "--budget", "0"], "positive number of seconds"),
        (["derive", "absent.toml", "--budget", "inf"], "--budget=inf"),
        (["growth", "L", "--in", "L", "--budget", "-1"], "positive number of seconds"),
        (["theory", "--prove-budget", "inf"], "--prove-budget=inf"),
    ],
)
def test_3_numbers_and_budgets_out_of_range_are_one_line(capsys, argv, needle):
    status, _, err = call(capsys, *argv)
    assert_error_line(status, err, argv[0], needle)


def test_3_a_certificate_number_in_exponent_notation_is_refused_before_it_is_built(tmp_path, capsys):
    status, out, _ = call(capsys, "prove", "x <= x + 1", *DOMAIN, "--json")
    certificate = json.loads(out)["inequalities"][0]["certificate"]
    certificate["boxes"][0]["box"]["x"][1] = "1e100000000"  # Fraction would build a 10^8-digit integer
    path = tmp_path / "c.json"
    path.write_text(json.dumps(certificate))
    status, _, err = call(capsys, "prove", "--check", path)
    assert_error_line(status, err, "prove", "'1e100000000' is not a rational")


def test_3_a_budget_stops_a_busy_block_and_nested_limits_resume(monkeypatch):
    from theory.prover.cpu_budget import OutOfBudget, cpu_limit, paused

    def spin(seconds):
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass

    with pytest.raises(OutOfBudget, match="inner: the CPU budget ran out"), cpu_limit(30, "outer"):
        with paused():
            spin(0.1)  # charged to nobody
        with cpu_limit(0.1, "inner"):
            spin(30)
    with cpu_limit(0.3, "outer"), paused():
        spin(0.4)  # the outer limit waits while paused, and 0.3 s are still left after it


def test_3_definitions_that_grow_exponentially_are_refused_when_read(tmp_path, capsys):
    levels = [f'd{i} = "(d{i - 1} + 1)*(d{i - 1} + 2)"' for i in range(1, 15)]
    text = HEADER + '[definitions]\nd0 = "x"\n' + "\n".join(levels) + "\n" + steps("d14", "<=", "d14 + 1")
    status, _, err = call(capsys, "derive", derivation(tmp_path, text), "--budget", "1")
    assert_error_line(status, err, "derive", "expands to more than 20000 nodes")


@pytest.mark.slow  # about 4 CPU s: the identity's normal form runs until the budget stops it
def test_3_an_identity_step_stops_at_the_budget(tmp_path):
    text = HEADER + steps("(x + 1)^3000*(x - 1)^3000", "=", "(x^2 - 1)^3000")
    result = run_cli("derive", derivation(tmp_path, text), "--budget", "1", timeout=60)
    assert result.returncode == 3, result.stderr
    assert "[undecided]" in result.stdout and "the CPU budget ran out" in result.stdout


@pytest.mark.slow  # about 5 CPU s
def test_3_a_statement_too_large_to_search_stops_at_the_budget():
    terms = ", ".join(f"x**{k}" for k in range(1000))
    result = run_cli("prove", f"Max({terms}) >= 0", *DOMAIN, "--budget", "2", timeout=60)
    assert result.returncode in (0, 3), result.stderr  # the typed tree can prove it (x^0 = 1) in budget
    assert "Traceback" not in result.stderr


@pytest.mark.slow  # about 5 CPU s: the class of a sum whose normal form is huge, stopped by the budget
def test_3_the_budget_of_growth_is_the_whole_run_not_only_the_crossover():
    expression = "(L+1)^3000*(L-1)^3000 - (L^2-1)^3000 + L"
    result = run_cli("growth", expression, "--in", "L", "--budget", "1", timeout=60)
    assert result.returncode == 3, result.stderr
    assert result.stderr == "specbound growth: error: growth: the CPU budget ran out\n"


def test_3_a_file_referenced_many_times_is_decided_once(tmp_path, capsys, monkeypatch):
    import theory.derive.decide as decide

    derivation(tmp_path, HEADER + steps("x", "<=", "x + 1"), "base.toml")
    uses = 'uses = ["file:base.toml"]\n'
    for level in range(1, 5):  # every level refers twice to the level below: 2^4 paths to base.toml
        below = "base.toml" if level == 1 else f"level{level - 1}.toml"
        twice = steps("x", "<=", "x + 1", f'uses = ["file:{below}"]\n').replace(uses, uses)
        text = HEADER + twice + f'[[steps]]\nrelation = "<="\nexpr = "x + 2"\nuses = ["file:{below}"]\n'
        derivation(tmp_path, text, f"level{level}.toml")
    read = []
    original = decide.read_derivation
    monkeypatch.setattr(decide, "read_derivation", lambda path: read.append(path.name) or original(path))
    status, _, err = call(capsys, "derive", tmp_path / "level4.toml", "--budget", "5")
    assert status == 0, err
    assert sorted(read) == ["base.toml", "level1.toml", "level2.toml", "level3.toml", "level4.toml"]


def _graph(tmp_path, levels):
    """base.toml, then level1..levelN each using the level below in two steps: 2^N paths to base."""
    derivation(tmp_path, HEADER + steps("x", "<=", "x + 1"), "base.toml")
    for level in range(1, levels + 1):
        below = "base.toml" if level == 1 else f"level{level - 1}.toml"
        uses = f'uses = ["file:{below}"]\n'
        text = (
            HEADER + steps("x", "<=", "x + 1", uses) + f'[[steps]]\nrelation = "<="\nexpr = "x + 2"\n{uses}'
        )
        derivation(tmp_path, text, f"level{level}.toml")
    return tmp_path / f"level{levels}.toml"


def test_3_a_file_graph_certificate_holds_each_file_once_and_is_accepted(tmp_path, capsys):
    top = _graph(tmp_path, 3)
    status, _, err = call(capsys, "derive", top, "--budget", "5", "--certificate", tmp_path / "c.json")
    assert status == 0, err
    certificate = json.loads((tmp_path / "c.json").read_text())
    assert sorted(certificate["files"]) == ["base.toml", "level1.toml", "level2.toml"]
    text = json.dumps(certificate)  # each file's certificate once: 4 titles, not 1 + 2 + 4 + 8
    assert [text.count(f'"title": "{t}"') for t in ("level3", "level2", "level1", "base")] == [1, 1, 1, 1]
    status, out, err = call(capsys, "prove", "--check", tmp_path / "c.json")
    assert status == 0 and out.startswith("accepted: x <= x + 2"), err


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda c: c["files"].pop("level1.toml"), "no derivation 'level1.toml' in the certificate's files"),
        (lambda c: c["files"]["base.toml"].update(files={}), "only the outermost certificate has a files"),
        (lambda c: c["files"].update({"base.toml": c["files"]["level1.toml"]}), "circular reference"),
        (lambda c: c["files"].update({"base.toml": [1]}), "is not a derivation certificate"),
    ],
)
def test_3_a_hostile_files_table_is_rejected(tmp_path, capsys, edit, needle):
    top = _graph(tmp_path, 2)
    status, _, err = call(capsys, "derive", top, "--budget", "5", "--certificate", tmp_path / "c.json")
    assert status == 0, err
    certificate = json.loads((tmp_path / "c.json").read_text())
    edit(certificate)
    (tmp_path / "c.json").write_text(json.dumps(certificate))
    status, out, err = call(capsys, "prove", "--check", tmp_path / "c.json")
    assert status == 1 and out.startswith("REJECTED") and needle in out, (out, err)


def test_3_a_lemma_inequality_is_limited_by_its_budget_whatever_it_computes(monkeypatch):
    import theory.prover.cpu_budget as cpu_budget
    import theory.prover.lemma_inequalities as lemmas

    def spin(entry, budget):
        while True:
            pass

    monkeypatch.setattr(cpu_budget, "GRACE", 0.0)
    monkeypatch.setattr(lemmas, "_decide", spin)
    from theory.prover.domain import parse_domain
    from theory.prover.statement import parse_statement

    statement = parse_statement("x <= x + 1", parse_domain("x: [0, 1]"))
    entry = lemmas.LemmaInequality("a lemma", "an inequality", statement, "none")
    verdict = lemmas.decide.__wrapped__(entry, 0.2)  # past the per-process cache
    assert verdict.status == "undecided"
    assert "the CPU budget ran out" in verdict.result.parts[0].reason


@pytest.mark.slow  # about 4 CPU s: three identity steps, each beyond the budget alone
def test_3_the_budget_of_derive_is_the_whole_run_not_each_step(tmp_path):
    heavy = "(x + 1)^3000*(x - 1)^3000"
    text = HEADER + f'[[steps]]\nexpr = "{heavy}"\n'
    text += (
        f'[[steps]]\nrelation = "="\nexpr = "(x^2 - 1)^3000"\n[[steps]]\nrelation = "="\nexpr = "{heavy}"\n'
    )
    text += '[[steps]]\nrelation = "="\nexpr = "(x^2 - 1)^3000"\n'
    result = run_cli("derive", derivation(tmp_path, text), "--budget", "1", timeout=60)
    assert result.returncode == 3, result.stderr
    assert result.stdout.count("[undecided]") == 3
    assert result.stdout.count("derive: the CPU budget ran out") == 3  # the run's limit, not each step's


# ---------------------------------------------------------------- 4. tracebacks


@pytest.mark.parametrize(
    "statement",
    ["(" * 199 + "x" + ")" * 199 + " >= 0", "exp(" * 142 + "x" + ")" * 142 + " >= 0", "-" * 5000 + "x >= 0"],
)
def test_4_nesting_beyond_the_limit_is_one_line_not_a_recursion_error(capsys, statement):
    status, _, err = call(capsys, "prove", statement, *DOMAIN)
    assert_error_line(status, err, "prove", "nesting deeper than 100")


def test_4_nesting_within_the_limit_is_decided(capsys):
    status, out, err = call(capsys, "prove", "(" * 99 + "x" + ")" * 99 + " >= 0", *DOMAIN)
    assert status == 0 and out.startswith("proved"), err


def test_4_diff_with_a_third_argument_is_one_line(capsys):
    status, _, err = call(capsys, "prove", "diff(x^2, x, 3) >= 0", *DOMAIN)
    assert_error_line(status, err, "prove", "diff takes two arguments")


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("a = " + "[" * 900 + "]" * 900 + "\n", "nested too deeply"),
        ("a = " + "1" * 4400 + "\n", "4300 digits"),
    ],
)
def test_4_hostile_toml_is_one_line(tmp_path, capsys, text, needle):
    status, _, err = call(capsys, "derive", derivation(tmp_path, text))
    assert_error_line(status, err, "derive", needle)


# ---------------------------------------------------------------- 8. derivation files


@pytest.mark.parametrize(
    "text",
    [
        '[assumptions]\n"a\\u001b[2J" = "x >= 0"\n',  # printed in "under the assumptions ..."
        '[definitions]\n"d\\u202e" = "x"\n',
        '[assumptions]\nsmall = "x >= 0"\n' + steps("x", "<=", "x + 1", 'uses = ["file:\\u001b[2J.toml"]\n'),
    ],
)
def test_8_a_control_character_in_any_key_or_value_is_refused(tmp_path, capsys, text):
    text = HEADER + text + ("" if "[[steps]]" in text else steps("x", "<=", "x + 1"))
    status, out, err = call(capsys, "derive", derivation(tmp_path, text))
    assert_error_line(status, err, "derive", "control character U+")
    assert out == "" and "\x1b" not in err and "\u202e" not in err


@pytest.mark.parametrize("character", ["\\u001b[2J", "\\r", "\\u202e", "\\u0007"])
@pytest.mark.parametrize("where", ["name", "title"])
def test_8_a_control_character_in_a_name_or_title_is_refused(tmp_path, capsys, character, where):
    extra = f'name = "ok{character}proved"\n' if where == "name" else ""
    text = (
        (f'title = "t{character}"\n' if where == "title" else "") + HEADER + steps("x", "<=", "x + 1", extra)
    )
    status, out, err = call(capsys, "derive", derivation(tmp_path, text))
    assert_error_line(status, err, "derive", "control character U+")
    assert out == "" and "\x1b" not in err and "\r" not in err


@pytest.mark.parametrize("reference", ["/etc/passwd", os.pardir + os.sep + "outside.toml", "link.toml"])
def test_8_a_file_reference_outside_the_folder_is_refused_before_it_is_read(tmp_path, capsys, reference):
    folder = tmp_path / "folder"
    folder.mkdir()
    outside = derivation(tmp_path, 'secret_key = "s3cr3t"\n', "outside.toml")
    (folder / "link.toml").symlink_to(outside)
    text = HEADER + steps("x", "<=", "x + 1", f'uses = ["file:{reference}"]\n')
    status, _, err = call(capsys, "derive", derivation(folder, text))
    assert_error_line(status, err, "derive", "outside the folder")
    assert "secret_key" not in err and "s3cr3t" not in err
