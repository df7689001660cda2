"""The scaling study behind claim 11: how B_ours and B_Edelman grow with depth L and width N.

One module per job: :mod:`.points` (the records), :mod:`.fit` (the exponents), :mod:`.grid` (the
synthetic models), :mod:`.user` (the user's checkpoints), :mod:`.study` (a run's study, once per run
context); the names below are the public surface.

Points come from four sources, each labelled as such:

- ``real``: the embedded checkpoints ``minilm-l3`` and ``minilm-l6`` (L = 3, 6 at N = 384);
- ``truncated``: the depth series obtained by keeping the first k layers of a real model
  (``TransformerWeights.truncated``): not a model trained at depth k, a prefix of one;
- ``synthetic``: small BERT-style encoders trained by the toolkit on CPU (:mod:`numerics.synthetic`)
  over a depth x width grid (a small grid for ``check``, a larger one for ``specbound scaling``);
- ``user``: any checkpoint folder a user passes (e.g. the Google BERT miniatures).

Every proxy value comes from :mod:`numerics.bounds.proxies` (the same numbers ``specbound bound`` prints).
Growth is summarised by a log-log least-squares exponent: log B = e log x + c_g, with one intercept
c_g per group of points that share everything but x (a fixed-effects fit), and the standard error of e
from the residual variance (undefined, reported as None, when no degree of freedom is left).
"""

from __future__ import annotations

from paper_checks.scaling.fit import Exponent as Exponent
from paper_checks.scaling.fit import ScalingStudy as ScalingStudy
from paper_checks.scaling.fit import fit_all as fit_all
from paper_checks.scaling.fit import fit_exponent as fit_exponent
from paper_checks.scaling.grid import FULL_GRID as FULL_GRID
from paper_checks.scaling.grid import QUICK_GRID as QUICK_GRID
from paper_checks.scaling.grid import TRAINING as TRAINING
from paper_checks.scaling.grid import SyntheticGrid as SyntheticGrid
from paper_checks.scaling.grid import synthetic_points as synthetic_points
from paper_checks.scaling.grid import train_grid_models as train_grid_models
from paper_checks.scaling.points import AXES as AXES
from paper_checks.scaling.points import PROXIES as PROXIES
from paper_checks.scaling.points import Origin as Origin
from paper_checks.scaling.points import ScalingPoint as ScalingPoint
from paper_checks.scaling.points import log_proxies as log_proxies
from paper_checks.scaling.points import point as point
from paper_checks.scaling.study import REAL_MODELS as REAL_MODELS
from paper_checks.scaling.study import real_points as real_points
from paper_checks.scaling.study import run_study as run_study
from paper_checks.scaling.study import study_for_context as study_for_context
from paper_checks.scaling.study import trained_for_context as trained_for_context
from paper_checks.scaling.user import user_points as user_points

__all__ = [
    "AXES",
    "FULL_GRID",
    "PROXIES",
    "QUICK_GRID",
    "REAL_MODELS",
    "TRAINING",
    "Exponent",
    "Origin",
    "ScalingPoint",
    "ScalingStudy",
    "SyntheticGrid",
    "fit_all",
    "fit_exponent",
    "log_proxies",
    "point",
    "real_points",
    "run_study",
    "study_for_context",
    "synthetic_points",
    "train_grid_models",
    "trained_for_context",
    "user_points",
]
