"""Start-up cost of ``specbound bound``: what it does not use is not imported (lazy imports).

A BERT checkpoint with its config imports the BERT adapter alone (numerics.loading.families.REGISTRY), and
neither the Gram path (``--fast-svd``) nor the certified sigma_1 of the coverage measures.

sympy is the largest of them (0.3 s, about 45 MB resident): the bound path evaluates theory's formulas from
their generated lambdify source (numerics.formulas.generated), in mpmath and, with ``--certify``, over arb
balls (numerics.certify.stored_arb), so neither the CLI nor ``bound`` nor ``bound --certify`` may import it.
"""

from __future__ import annotations

import functools
import subprocess
import sys

import pytest

from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder
from tests.helpers.paths import ROOT

pytest.importorskip("safetensors", reason="writing the tiny checkpoint needs safetensors (models extra)")

COMPILED_RECORDS = """
def compiled_records(modules):
    # the dataclasses defined in modules whose methods the standard library compiled from source: the ones
    # whose __init__ is not theory.records'
    return sorted(
        f"{value.__module__}.{value.__qualname__}"
        for module in modules
        for value in vars(module).values()
        if isinstance(value, type)
        and value.__module__ == module.__name__
        and "__dataclass_fields__" in vars(value)
        and getattr(value.__init__, "__module__", None) != "theory.records"
    )
"""
PROBE = (
    COMPILED_RECORDS
    + """
import contextlib, io, sys
from paper_checks.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(["bound", sys.argv[1], "--jobs", "1", *sys.argv[2:]])
heavy = ("numerics.bounds.assembled", "theory.assembled", "numerics.synthetic.gap", "numpy.f2py", "torch",
         "sympy", "transformers", "matplotlib", "pandas", "onnx", "theory.proxy",
         "paper_checks.commands.check", "numerics.loading.families.llama", "numerics.loading.families.gpt2",
         "numerics.loading.families.distilbert")
if "--certify" not in sys.argv:  # the certificates use the Gram matrix
    heavy += ("numerics.spectra.gram", "numerics.spectra.top_singular")
print(status, *[name for name in heavy if name in sys.modules])
ours = ("theory", "numerics", "paper_checks")
print(*compiled_records([m for name, m in list(sys.modules.items()) if name.split(".")[0] in ours]))
"""
)
"""``specbound bound`` on a folder in a fresh interpreter; it prints the status and the heavy modules
imported, then the records whose methods were compiled at start-up."""

IMPORT_ONLY = """
import sys
import paper_checks.cli, theory, numerics
print(*[name for name in ("sympy", "torch", "transformers", "matplotlib", "pandas") if name in sys.modules])
"""


def test_importing_the_cli_imports_neither_sympy_nor_torch():
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ONLY], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == [], done.stdout + done.stderr


@pytest.fixture(scope="module")
def bound_probe(tmp_path_factory):
    """:data:`PROBE` on one tiny BERT folder, run once per argument list (its two lines and stderr)."""
    folder = write_folder(tmp_path_factory.mktemp("bound") / "m", tiny_bert_tensors(), bert_config())

    @functools.cache
    def run(*extra: str) -> tuple[list[str], str]:
        done = subprocess.run(
            [sys.executable, "-c", PROBE, str(folder), *extra],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.splitlines(), done.stderr

    return run


@pytest.mark.parametrize("extra", [[], ["--certify"]], ids=["plain", "certify"])
def test_bound_imports_no_sympy_torch_plotting_nor_other_commands(bound_probe, extra):
    if extra:
        pytest.importorskip("flint", reason="--certify needs python-flint (certify extra)")
    lines, errors = bound_probe(*extra)
    assert lines[0].split() == ["0"], (lines, errors)


def test_bound_compiles_no_dataclass_methods_at_start_up(bound_probe):
    """Every record on the bound path is a theory.records record: no method source is compiled per class
    (the plain run's second line)."""
    lines, errors = bound_probe()
    assert len(lines) == 2 and (lines[0].split()[:1], lines[1].split()) == (["0"], []), (lines, errors)


def test_the_compiled_record_probe_finds_a_planted_dataclass(monkeypatch):
    import types

    namespace: dict[str, object] = {}
    exec(COMPILED_RECORDS, namespace)
    planted = types.ModuleType("planted")
    monkeypatch.setitem(sys.modules, "planted", planted)  # dataclasses reads the module of the class
    exec(
        "import dataclasses\nfrom theory.records import record\n"
        "@dataclasses.dataclass(frozen=True)\nclass Compiled:\n    x: int\n"
        "@record\nclass Shared:\n    x: int\n",
        vars(planted),
    )
    assert namespace["compiled_records"]([planted]) == ["planted.Compiled"]


HEAVY = (
    "numpy",
    "mpmath",
    "sympy",
    "scipy",
    "flint",
    "torch",
    "transformers",
    "matplotlib",
    "pandas",
    "onnx",
)
COMMAND_PROBE = """
import contextlib, io, sys
from paper_checks.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    main(sys.argv[1:])
print(*sorted({name.split(".")[0] for name in sys.modules}), "|", *sorted(sys.modules))
"""


@functools.cache
def _imported_by(*argv: str) -> tuple[frozenset[str], frozenset[str]]:
    """(top-level packages, all modules) in sys.modules after ``specbound ARGV`` in a fresh interpreter
    (run once per ARGV: --version and --help serve two tests each)."""
    done = subprocess.run(
        [sys.executable, "-c", COMMAND_PROBE, *argv], cwd=ROOT, capture_output=True, text=True, check=True
    )
    packages, modules = done.stdout.split("|")
    return frozenset(packages.split()), frozenset(modules.split())


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["bound", "--help"], ["inspect", "--help"]])
def test_version_and_help_import_no_numerics_library(argv):
    packages, modules = _imported_by(*argv)
    assert packages.isdisjoint(HEAVY), packages & set(HEAVY)
    assert "numerics.spectra.spectrum" not in modules and "numerics.loading.checkpoint" not in modules


def test_a_bare_version_registers_no_command():
    _, modules = _imported_by("--version")
    assert not {name for name in modules if name.startswith("paper_checks.commands.")}


def test_the_full_parser_learns_every_option_without_the_implementations():
    packages, modules = _imported_by("--help")
    commands = {name for name in modules if name.startswith("paper_checks.commands.")}
    assert {"paper_checks.commands.bound", "paper_checks.commands.sweep"} <= commands  # every one registered
    assert packages.isdisjoint(HEAVY) and "numerics.bounds.proxies" not in modules


def test_prove_imports_no_other_command_and_no_checkpoint_machinery():
    packages, modules = _imported_by("prove", "x <= x + 1", "--domain", "x: [0, 1]")
    commands = {name for name in modules if name.startswith("paper_checks.commands.")}
    # the commands' shared private helpers (paper_checks.commands._coq_options) are not commands
    assert {name for name in commands if not name.rpartition(".")[2].startswith("_")} == {
        "paper_checks.commands.prove"
    }
    assert packages.isdisjoint({"torch", "transformers", "matplotlib", "pandas", "onnx", "scipy"}), packages
    assert not {name for name in modules if name.startswith(("numerics.loading", "numerics.bounds"))}


def test_the_version_is_the_one_the_package_metadata_records():
    import importlib.metadata

    from theory.version import installed_version

    try:
        expected = importlib.metadata.version("specbound")
    except importlib.metadata.PackageNotFoundError:
        expected = "unknown"
    assert installed_version() == expected


def test_only_the_program_collects_young_objects_apart(monkeypatch):
    import gc

    from paper_checks import cli

    seen = []
    monkeypatch.setattr(cli, "_run", lambda argv: seen.append((argv, gc.get_threshold())) or 0)
    monkeypatch.setattr(sys, "argv", ["specbound", "--version"])
    before = gc.get_threshold()
    try:
        assert cli.main(["bound", "--help"]) == 0  # a caller's own argv: the process is the caller's
        assert gc.get_threshold() == before
        assert cli.main() == 0  # the program: the process ends with the command
        assert gc.get_threshold() == (cli.COLLECTOR_THRESHOLD, *before[1:])
    finally:
        gc.set_threshold(*before)
    assert seen == [(["bound", "--help"], before), (["--version"], (cli.COLLECTOR_THRESHOLD, *before[1:]))]
