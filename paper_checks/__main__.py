"""``python -m paper_checks``: the same as ``specbound check`` (extra arguments are passed on)."""

from __future__ import annotations

import sys

from paper_checks.cli import main

if __name__ == "__main__":
    sys.exit(main(["check", *sys.argv[1:]]))
