"""The files a user of the distribution looks for: LICENSE, CITATION.cff, CHANGELOG.md and __version__,
all agreeing with pyproject.toml."""

from __future__ import annotations

import importlib
import importlib.metadata
import re
import tomllib

import pytest

from tests.helpers.paths import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


@pytest.mark.parametrize("package", ["theory", "numerics", "paper_checks"])
def test_each_package_has_the_installed_version(package):
    assert importlib.import_module(package).__version__ == importlib.metadata.version("specbound")
    assert importlib.metadata.version("specbound") == PROJECT["version"]


def test_the_license_file_is_the_apache_2_text_pyproject_names():
    text = (ROOT / "LICENSE").read_text()
    assert PROJECT["license"] == {"text": "Apache-2.0"}
    assert text.split()[:4] == ["Apache", "License", "Version", "2.0,"]
    for section in range(1, 10):  # the nine sections of the terms
        assert re.search(rf"^\s+{section}\. [A-Z]", text, re.MULTILINE), section
    assert "END OF TERMS AND CONDITIONS" in text and "http://www.apache.org/licenses/LICENSE-2.0" in text


def test_the_citation_file_cites_the_paper_and_this_version():
    text = (ROOT / "CITATION.cff").read_text()
    assert re.search(r"^cff-version: 1\.2\.0$", text, re.MULTILINE)
    assert re.search(rf"^version: {re.escape(PROJECT['version'])}$", text, re.MULTILINE)
    assert "arXiv:2605.07297" in text and "family-names: Sakai" in text and "family-names: Imaizumi" in text
    assert "license: Apache-2.0" in text


def test_the_changelog_has_the_current_version():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert f"## [{PROJECT['version']}]" in text and "## [Unreleased]" in text
