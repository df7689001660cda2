"""numerics: checkpoints -> matrices -> spectra -> evaluated expressions -> proxies and bounds."""

from numerics.assembled import AssembledBound as AssembledBound
from numerics.assembled import assembled_bound as assembled_bound
from numerics.evaluate import evaluate as evaluate
from numerics.loading import DEFAULT_MODELS as DEFAULT_MODELS
from numerics.loading import load_weights as load_weights
from numerics.loading import open_checkpoint as open_checkpoint
from numerics.loading.weights import LayerWeights as LayerWeights
from numerics.loading.weights import TransformerWeights as TransformerWeights
from numerics.matrices import NamedMatrix as NamedMatrix
from numerics.matrices import extract_matrices as extract_matrices
from numerics.posthoc import PChoice as PChoice
from numerics.posthoc import choose_p as choose_p
from numerics.proxies import ProxyReport as ProxyReport
from numerics.proxies import proxies as proxies
from numerics.spectrum import Spectrum as Spectrum
from numerics.spectrum import spectrum as spectrum
