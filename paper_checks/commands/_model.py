"""The MODEL argument shared by the commands that read one checkpoint (``inspect``, ``bound``)."""

from __future__ import annotations

import argparse

from numerics.loading.aliases import DEFAULT_MODELS


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the positional MODEL (default: the first embedded model) and ``--num-heads``."""
    parser.add_argument(
        "model",
        nargs="?",
        default=DEFAULT_MODELS[0],
        metavar="MODEL",
        help=f"an alias ({', '.join(DEFAULT_MODELS)}), a Hugging Face folder, or a .safetensors, .bin "
        f"or .onnx file (default {DEFAULT_MODELS[0]})",
    )
    parser.add_argument(
        "--num-heads",
        type=int,
        metavar="H",
        help="number of attention heads, for a bare weights file with no config.json beside it",
    )
