"""The MODEL argument shared by the commands that read one checkpoint (``inspect``, ``bound``), and the
``--family`` option they share with ``sweep``."""

from __future__ import annotations

import argparse

from numerics.loading.aliases import DEFAULT_MODELS


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the positional MODEL (default: the first embedded model), ``--num-heads`` and ``--family``."""
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
    add_family_argument(parser)


def add_family_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--family NAME``: the model family of a checkpoint whose config.json has no model_type."""
    parser.add_argument(
        "--family",
        metavar="NAME",
        help="the model family (a family key such as llama, gemma, qwen3, or a model_type), for a checkpoint "
        "without a config model_type whose tensors fit several families",
    )
