"""Synthetic transformers of the reconstructed theory's class, trained on tasks with a known target.

The public API, in one place (each name is defined in the module named in parentheses):

- :class:`SyntheticConfig`, :func:`build_model`, :func:`to_weights` (``numerics.synthetic.model``): the
  architecture, a float64 torch module, and its weights as :class:`numerics.loading.TransformerWeights`;
- :class:`SparseSelectionTask`, :class:`Sample`, :class:`Task` (``numerics.synthetic.tasks``): tasks as
  objects, with a noisy-label variant (``task.with_noise(0.2)``);
- :class:`TrainingConfig`, :func:`train`, :func:`train_synthetic`, :class:`TrainedModel`
  (``numerics.synthetic.train``): deterministic full-batch training on CPU.

torch is needed (``pip install 'specbound[models]'``) and is imported only when a model is built. The
names are imported on first use (PEP 562), so the light ``numerics.synthetic.defaults`` (the settings the
command line names at start) imports none of them.

>>> from numerics.synthetic import SparseSelectionTask, SyntheticConfig, TrainingConfig, train_synthetic
>>> config = SyntheticConfig(num_layers=1, hidden_size=8)
>>> task = SparseSelectionTask(hidden_size=8, seq_len=4, relevant=(1,), noise=0.1)
>>> trained = train_synthetic(config, task, TrainingConfig(n_train=32, epochs=5))
>>> trained.weights.num_layers, trained.weights.hidden_size, trained.weights.num_heads
(1, 8, 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from theory.prover.lazy_exports import lazy_getattr

if TYPE_CHECKING:
    from numerics.synthetic.model import SyntheticConfig, build_model, project_rows, to_weights
    from numerics.synthetic.tasks import Sample, SparseSelectionTask, Task
    from numerics.synthetic.train import TrainedModel, TrainingConfig, predict, train, train_synthetic

_HOME = {
    **dict.fromkeys(
        ("SyntheticConfig", "build_model", "project_rows", "to_weights"), "numerics.synthetic.model"
    ),
    **dict.fromkeys(("Sample", "SparseSelectionTask", "Task"), "numerics.synthetic.tasks"),
    **dict.fromkeys(
        ("TrainedModel", "TrainingConfig", "predict", "train", "train_synthetic"), "numerics.synthetic.train"
    ),
}

__all__ = [
    "Sample",
    "SparseSelectionTask",
    "SyntheticConfig",
    "Task",
    "TrainedModel",
    "TrainingConfig",
    "build_model",
    "predict",
    "project_rows",
    "to_weights",
    "train",
    "train_synthetic",
]


__getattr__ = lazy_getattr(__name__, _HOME)
