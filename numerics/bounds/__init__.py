"""The bounds on weights: the proxies B_ours and B_Edelman, the post hoc Schatten index, the assembled
bound (reconstructed Theorem 3.1) and the numbers the coverage statements compute (SwiGLU, rotary).
"""

__all__ = ["assembled", "comparison", "composition", "posthoc", "proxies", "reach", "schatten"]
"""The modules other packages use (each imported by its full name; the package itself imports nothing)."""
