"""Many matrices or checkpoints at once: worker processes (``--jobs``, bit-identical to the serial run),
a Dask cluster (``--scheduler``), and checkpoint sweeps cached by content hash (``specbound sweep``).
"""

__all__ = ["sweep", "workers"]
"""The modules other packages use (each imported by its full name; the package itself imports nothing)."""
