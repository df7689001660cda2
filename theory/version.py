"""The specbound version, from one source: the version pip recorded when it installed the distribution
(pyproject.toml's version).

Each package's ``__version__`` (``theory``, ``numerics``, ``paper_checks``), ``specbound --version`` and
every result's signature read it here. It is the ``specbound-<version>.dist-info`` folder on ``sys.path``
(the binary distribution format, PEP 427, names it so; the first one on the path wins, as for
``importlib.metadata``).
Reading the folder name costs one directory listing per path entry, against about 30 ms of CPU for importing
``importlib.metadata`` and parsing the metadata file, which every run would pay at start-up.
"""

from __future__ import annotations

import functools
import os
import sys

DIST_INFO_SUFFIX = ".dist-info"


@functools.cache
def installed_version() -> str:
    """The installed specbound version ('unknown' when run from a source tree that is not installed).

    >>> import importlib.metadata
    >>> installed_version() == importlib.metadata.version("specbound")
    True
    """
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
