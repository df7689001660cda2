"""The error hierarchy shared by every layer of specbound.

One root, :class:`SpecboundError`; every error the toolkit raises on purpose derives from it, so a
caller can catch all of them at once and the CLI can print the message and exit with status 2.
Messages name the argument, its value and the valid domain ("p=2.5 is outside [0, 2]").
"""

from __future__ import annotations


class SpecboundError(Exception):
    """Root of every error specbound raises on purpose."""


class InvalidArgument(SpecboundError, ValueError):
    """An argument is outside its domain: p outside [0, 2], a grid m < 1, a zero or non-finite matrix."""


class CheckpointError(SpecboundError):
    """A checkpoint cannot be read: missing path, missing config or weights, truncated or corrupt file."""


class UnsupportedCheckpoint(CheckpointError):
    """A checkpoint was read but is not a BERT-family encoder, or its projections cannot be identified."""


class CertificationFailed(SpecboundError):
    """A rigorous enclosure could not be computed, or is too wide to decide the question asked of it."""


class MissingDependency(SpecboundError):
    """An optional dependency (an extra of the distribution) is needed and not installed."""


def require(module: str, extra: str) -> None:
    """Raise :class:`MissingDependency` naming the extra to install when ``module`` cannot be imported."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise MissingDependency(
            f"this needs the optional dependency {module!r}; "
            f"install it with: pip install 'specbound[{extra}]'"
        )
