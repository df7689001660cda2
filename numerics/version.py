"""The installed specbound version (a light module: ``--version`` and every report's signature read it).

The version is the one pip recorded when it installed the package: the ``specbound-<version>.dist-info``
folder on ``sys.path`` (the binary distribution format, PEP 427, names it so; the first one on the path
wins, as for ``importlib.metadata``). Reading the folder name costs one directory listing per path entry,
against about 30 ms of CPU for importing ``importlib.metadata`` and parsing the metadata file, which every
``bound`` run paid at start-up.
"""

from __future__ import annotations

import functools
import os
import sys

DIST_INFO_SUFFIX = ".dist-info"


@functools.cache
def toolkit_version() -> str:
    """The installed specbound version ('unknown' when run from a source tree that is not installed)."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in sorted(names):
            parts = name.removesuffix(DIST_INFO_SUFFIX).split("-")
            if name.endswith(DIST_INFO_SUFFIX) and len(parts) == 2 and parts[0] == "specbound":
                return parts[1]  # a distribution name's own dashes are underscores in the folder name
    return "unknown"
