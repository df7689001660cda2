"""Tiny random-initialised transformers of every supported family, saved as Hugging Face folders.

Float64, eager attention (so ``output_attentions`` returns the softmax probabilities), projection biases
set to zero (the theory's class has none; ``coverage`` says so), torch single-threaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

torch = __import__("pytest").importorskip("torch", reason="building the tiny models needs torch")
transformers = __import__("pytest").importorskip("transformers", reason="the tiny models need transformers")


def _configs() -> dict[str, Any]:
    t = transformers
    return {
        "bert": t.BertConfig(
            hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=48, vocab_size=40
        ),
        "distilbert": t.DistilBertConfig(dim=32, n_layers=2, n_heads=4, hidden_dim=48, vocab_size=40),
        "gpt2": t.GPT2Config(
            n_embd=32, n_layer=2, n_head=4, vocab_size=40, n_positions=16, bos_token_id=0, eos_token_id=0
        ),
        "vit": t.ViTConfig(
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=4,
            intermediate_size=48,
            image_size=8,
            patch_size=4,
        ),
        "llama": t.LlamaConfig(
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=4,
            num_key_value_heads=2,
            intermediate_size=48,
            vocab_size=40,
        ),
        "mistral": t.MistralConfig(
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=4,
            num_key_value_heads=1,
            intermediate_size=40,
            vocab_size=40,
        ),
        "qwen2": t.Qwen2Config(
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=4,
            num_key_value_heads=2,
            intermediate_size=40,
            vocab_size=40,
        ),
    }


FAMILY_NAMES = ("bert", "distilbert", "gpt2", "vit", "llama", "mistral", "qwen2")
ROTARY = {"llama", "mistral", "qwen2"}


@dataclass
class TinyModel:
    """A model in memory, its saved folder, and how to feed it."""

    name: str
    model: Any
    folder: Path

    def inputs(self, seed: int) -> dict[str, Any]:
        """A batch of two random inputs (token ids, or images for ViT)."""
        generator = torch.Generator().manual_seed(seed)
        if self.name == "vit":
            return {"pixel_values": torch.randn(2, 3, 8, 8, generator=generator, dtype=torch.float64)}
        return {"input_ids": torch.randint(0, 40, (2, 7), generator=generator)}


def build(name: str, folder: Path, **save: Any) -> TinyModel:
    """Build, zero the projection biases, and save ``name``'s tiny model to ``folder``."""
    torch.set_num_threads(1)
    torch.manual_seed(0)
    config = _configs()[name]
    model = transformers.AutoModel.from_config(config, attn_implementation="eager").double().eval()
    with torch.no_grad():
        for module in model.modules():
            bias = getattr(module, "bias", None)
            weight = getattr(module, "weight", None)
            is_projection = (
                weight is not None and weight.ndim == 2 and "Embedding" not in type(module).__name__
            )
            if is_projection and isinstance(bias, torch.Tensor):
                bias.zero_()
    model.save_pretrained(folder, **save)
    return TinyModel(name, model, folder)


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)
