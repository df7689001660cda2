"""numerics: checkpoints -> matrices -> spectra -> evaluated expressions -> proxies and bounds."""

from numerics.matrices import NamedMatrix as NamedMatrix, extract_matrices as extract_matrices
from numerics.weights import LayerWeights as LayerWeights, TransformerWeights as TransformerWeights
