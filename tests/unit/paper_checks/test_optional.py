"""One guard for every optional package (theory.errors.require): a missing one is one line naming the
package and the extra to install, exit 2 at the CLI, never a ModuleNotFoundError traceback."""

from __future__ import annotations

import sys
import tomllib

import pytest

from tests.helpers.paths import ROOT
from theory.errors import OPTIONAL_MODULES, MissingDependency, missing_dependency, require

PYPROJECT = ROOT / "pyproject.toml"


def _extras() -> dict[str, list[str]]:
    return tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]


def test_every_optional_module_s_package_is_in_the_extra_the_message_names():
    extras = _extras()
    for module, (distribution, extra) in OPTIONAL_MODULES.items():
        names = [requirement.split(">")[0].split("=")[0].split("<")[0] for requirement in extras[extra]]
        assert distribution in names, (module, distribution, extra, names)


def _packages(extras: dict[str, list[str]], extra: str) -> set[str]:
    """The package names an extra installs, its self-references (specbound[a,b]) followed."""
    names: set[str] = set()
    for requirement in extras[extra]:
        if requirement.startswith("specbound["):
            for inner in requirement[len("specbound[") : -1].split(","):
                names |= _packages(extras, inner)
        else:
            names.add(requirement.split(">")[0].split("=")[0].split("<")[0].split("[")[0])
    return names


def test_all_is_every_extra_but_the_linters_and_dev_adds_them():
    extras = _extras()
    # bench: the prover's peers (z3, cvc5) for benchmarks/prover_peers.py, which no command needs
    everything = set().union(*(_packages(extras, e) for e in extras if e not in ("all", "dev", "bench")))
    assert _packages(extras, "all") == everything  # the README's "everything above", [test] included
    assert {"pytest", "hypothesis"} <= _packages(extras, "all")
    assert not {"ruff", "mypy"} & _packages(extras, "all")
    assert {"ruff", "mypy", "pytest"} <= _packages(extras, "dev")
    assert "progress" not in extras  # tqdm comes with [models] (transformers requires it)


def test_a_missing_module_is_one_message_naming_package_and_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "flint", None)  # import flint now raises ModuleNotFoundError
    with pytest.raises(MissingDependency) as caught:
        require("flint", purpose="the prover")
    message = str(caught.value)
    assert message == (
        "the prover needs the package 'python-flint', which is not installed; "
        "install it with: pip install 'specbound[certify]'"
    )


def test_an_explicit_extra_wins_and_a_present_module_is_returned(monkeypatch):
    import numpy

    assert require("numpy") is numpy
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(MissingDependency, match=r"specbound\[sweep\]"):
        require("pandas", "sweep", purpose="--parquet")


def test_a_missing_module_inside_an_installed_package_is_not_called_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "no_such_module_xyz", None)
    with pytest.raises(ModuleNotFoundError):
        require("no_such_module_xyz")  # not an optional module of specbound: the real error stays


def test_an_unguarded_import_is_translated_only_for_optional_modules():
    translated = missing_dependency(ModuleNotFoundError("No module named 'torch'", name="torch"))
    assert isinstance(translated, MissingDependency) and "specbound[models]" in str(translated)
    assert missing_dependency(ModuleNotFoundError("x", name="no_such_module_xyz")) is None
    assert missing_dependency(ValueError("torch")) is None


def test_bound_without_safetensors_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    pytest.importorskip("safetensors", reason="writing the checkpoint needs safetensors (models extra)")
    from paper_checks.cli import main
    from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder

    folder = write_folder(tmp_path / "m", tiny_bert_tensors(), bert_config())
    monkeypatch.setitem(sys.modules, "safetensors", None)
    assert main(["bound", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "needs the package 'safetensors'" in err[0] and "specbound[models]" in err[0]


def test_an_unguarded_optional_import_at_the_cli_is_one_line(capsys, monkeypatch):
    from paper_checks.cli import main
    from paper_checks.commands import theory as theory_command

    def unguarded(args):
        import torch  # noqa: F401  (planted: an import that forgot the guard)

    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.setattr(theory_command, "run", unguarded)
    assert main(["theory"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'torch'" in err[0] and "specbound[models]" in err[0]


def test_check_counts_crashed_claims_apart_from_open_ones():
    from paper_checks.commands.check import summary_line
    from paper_checks.registry import ClaimResult, Verdict

    results = [
        ClaimResult("1", "a", Verdict.VERIFIED, "derived", "ok"),
        ClaimResult("2", "b", Verdict.OPEN, "derived", "undecided"),
        ClaimResult(
            "3", "c", Verdict.OPEN, "none: the check crashed", "crashed", error="MissingDependency: x"
        ),
    ]
    assert summary_line(results) == "3 claims: 1 verified, 0 refuted, 1 open, 1 crashed"


def _lazy_package(root, monkeypatch):
    """A package ``lazy_pkg`` exporting ``Thing`` from ``lazy_pkg.heavy`` (which imports torch bare) and
    holding ``lazy_pkg.broken`` (which imports a module that does not exist), torch made unimportable."""
    package = root / "lazy_pkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from theory.prover.lazy_exports import lazy_getattr\n"
        "__getattr__ = lazy_getattr(__name__, {'Thing': 'lazy_pkg.heavy'})\n"
    )
    (package / "heavy.py").write_text("import torch\nThing = 1\n")
    (package / "broken.py").write_text("import no_such_module_xyz\n")
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setitem(sys.modules, "torch", None)
    for name in ("lazy_pkg", "lazy_pkg.heavy", "lazy_pkg.broken"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import lazy_pkg

    return lazy_pkg


def test_a_lazy_export_whose_module_needs_a_missing_package_names_the_package(tmp_path, monkeypatch):
    lazy_pkg = _lazy_package(tmp_path, monkeypatch)
    with pytest.raises(
        MissingDependency, match=r"lazy_pkg\.heavy needs the package 'torch'.*specbound\[models\]"
    ):
        lazy_pkg.heavy  # noqa: B018 (a submodule through the package's __getattr__)
    with pytest.raises(MissingDependency, match=r"lazy_pkg\.Thing needs the package 'torch'"):
        lazy_pkg.Thing  # noqa: B018 (a public name whose home module needs torch)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        lazy_pkg.no_such_name  # noqa: B018 (no submodule of that name: still an AttributeError)
    with pytest.raises(ModuleNotFoundError, match="no_such_module_xyz"):
        lazy_pkg.broken  # noqa: B018 (a missing module that is not optional: re-raised as it is)
