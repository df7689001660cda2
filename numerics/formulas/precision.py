"""The default working precision (a light module: the command line's options name it at start, no mpmath)."""

DEFAULT_DPS = 50
"""Default working precision in decimal digits (``--dps``)."""
