"""Re-export the encoder from PyTorch (needs the `export` extra: torch and transformers).

The default build (`retrieval.minilm_build`) needs no PyTorch and yields the same int8 weights; this path stays for
checking that claim, and for re-exporting after a model change.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from boundloop.retrieval.private_files import FILE_MODE, private_folder


def export_int8_onnx(model_dir: Path, target: Path) -> None:
    """Export MiniLM to ONNX with torch.onnx and quantise its weights to int8; written atomically."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    class _LastHidden(torch.nn.Module):
        def __init__(self, model: torch.nn.Module) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.model(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    model = AutoModel.from_pretrained(str(model_dir)).eval()
    private_folder(target.parent)
    ids = torch.ones(2, 16, dtype=torch.long)
    axes = {0: "batch", 1: "sequence"}
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        int8 = Path(tmp) / "int8.onnx"
        torch.onnx.export(
            _LastHidden(model),
            (ids, torch.ones_like(ids), torch.zeros_like(ids)),
            str(fp32),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_type_ids": axes,
                          "last_hidden_state": axes},
            opset_version=17,
            dynamo=False,
        )
        quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True)
        os.chmod(int8, FILE_MODE)
        os.replace(int8, target)
