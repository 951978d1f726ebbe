"""Builds the offline encoder's int8 ONNX file from the packaged all-MiniLM-L6-v2 weights, without PyTorch.

The BERT encoder is written out as an ONNX graph around the weights of `model.safetensors` (numpy only), then its
weights are quantised to int8 exactly as the PyTorch export's were (dynamic, per channel): the same int8 weights,
so the vectors match the exported model's (cosine >= 0.999, `tests/test_encoder_build.py`).
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from boundloop.retrieval.private_files import FILE_MODE, private_folder

OPSET = 17
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT = "last_hidden_state"


class _Graph:
    """Collects nodes and initialisers; every helper returns the name of the tensor it made."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.weights = weights
        self.nodes: list = []
        self.initializers: list = []
        self._names: set[str] = set()
        self._count = 0

    def const(self, name: str, value: np.ndarray) -> str:
        from onnx import numpy_helper

        if name not in self._names:
            self._names.add(name)
            self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def weight(self, key: str, transpose: bool = False) -> str:
        value = self.weights[key].astype(np.float32)
        return self.const(key, value.T if transpose else value)

    def op(self, op_type: str, *inputs: str, **attrs: Any) -> str:
        from onnx import helper

        self._count += 1
        out = f"{op_type.lower()}_{self._count}"
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], name=out, **attrs))
        return out

    def linear(self, x: str, prefix: str) -> str:
        """The input times W.T plus b, with W.T stored as the initialiser (as torch.onnx exports `nn.Linear`)."""
        return self.op("Add", self.weight(f"{prefix}.bias"),
                       self.op("MatMul", x, self.weight(f"{prefix}.weight", transpose=True)))

    def layer_norm(self, x: str, prefix: str, epsilon: float) -> str:
        return self.op("LayerNormalization", x, self.weight(f"{prefix}.weight"), self.weight(f"{prefix}.bias"),
                       axis=-1, epsilon=epsilon)


def _embeddings(g: _Graph, epsilon: float) -> str:
    words = g.op("Gather", g.weight("embeddings.word_embeddings.weight"), "input_ids")
    types = g.op("Gather", g.weight("embeddings.token_type_embeddings.weight"), "token_type_ids")
    # positions 0..seq-1 sliced from a [1, 512] table, as the PyTorch export does (a Range here upset ORT's fusion)
    length = g.op("Slice", g.op("Shape", "input_ids"), g.const("one_1d", np.array([1], dtype=np.int64)),
                  g.const("two_1d", np.array([2], dtype=np.int64)))
    table = g.const("position_ids", np.arange(g.weights["embeddings.position_embeddings.weight"].shape[0],
                                              dtype=np.int64)[None, :])
    positions = g.op("Slice", table, g.const("zero_1d", np.array([0], dtype=np.int64)), length,
                     g.const("one_1d", np.array([1], dtype=np.int64)))
    position = g.op("Gather", g.weight("embeddings.position_embeddings.weight"), positions)
    summed = g.op("Add", g.op("Add", words, types), position)
    return g.layer_norm(summed, "embeddings.LayerNorm", epsilon)


def _mask_bias(g: _Graph) -> str:
    """0 where a token may be attended to, -inf where it is padding: shape [batch, 1, 1, seq]."""
    keep = g.op("Cast", g.op("Unsqueeze", "attention_mask", g.const("axes_1_2", np.array([1, 2], dtype=np.int64))),
                to=9)  # 9 = BOOL
    return g.op("Where", keep, g.const("zero_f", np.array([0.0], dtype=np.float32)),
                g.const("minus_inf", np.array([-np.inf], dtype=np.float32)))


def _layer(g: _Graph, x: str, mask: str, n: int, heads: int, hidden: int, epsilon: float) -> str:
    p = f"encoder.layer.{n}"
    split = g.const("split_heads", np.array([0, 0, heads, hidden // heads], dtype=np.int64))
    merge = g.const("merge_heads", np.array([0, 0, hidden], dtype=np.int64))

    def heads_of(name: str, perm: list[int]) -> str:
        return g.op("Transpose", g.op("Reshape", g.linear(x, f"{p}.attention.self.{name}"), split), perm=perm)

    query = heads_of("query", [0, 2, 1, 3])
    key = heads_of("key", [0, 2, 3, 1])
    value = heads_of("value", [0, 2, 1, 3])
    # the scale goes on both sides, as a fourth root each, and a fully masked row's NaNs become 0: the
    # arithmetic of PyTorch's scaled_dot_product_attention export, so the int8 activations round the same way
    root = g.const("attention_scale_root", np.array((hidden // heads) ** -0.25, dtype=np.float32))
    scores = g.op("Add", g.op("MatMul", g.op("Mul", query, root), g.op("Mul", key, root)), mask)
    weights = g.op("Softmax", scores, axis=-1)
    weights = g.op("Where", g.op("IsNaN", weights), g.const("zero_f", np.array([0.0], dtype=np.float32)), weights)
    context = g.op("MatMul", weights, value)
    context = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), merge)
    attended = g.layer_norm(g.op("Add", g.linear(context, f"{p}.attention.output.dense"), x),
                            f"{p}.attention.output.LayerNorm", epsilon)
    inner = g.linear(attended, f"{p}.intermediate.dense")
    erf = g.op("Erf", g.op("Div", inner, g.const("sqrt2", np.array(math.sqrt(2.0), dtype=np.float32))))
    gelu = g.op("Mul", g.op("Mul", inner, g.op("Add", erf, g.const("one_f", np.array(1.0, dtype=np.float32)))),
                g.const("half", np.array(0.5, dtype=np.float32)))
    out = g.op("Add", g.linear(gelu, f"{p}.output.dense"), attended)
    return g.layer_norm(out, f"{p}.output.LayerNorm", epsilon)


def fp32_model(model_dir: Path) -> Any:
    """The encoder as an fp32 ONNX model: token ids, mask and type ids in; the last hidden state out."""
    from onnx import TensorProto, helper
    from safetensors.numpy import load_file

    config = json.loads((model_dir / "config.json").read_text())
    weights = load_file(str(model_dir / "model.safetensors"))
    epsilon, heads, hidden = float(config["layer_norm_eps"]), config["num_attention_heads"], config["hidden_size"]
    g = _Graph(weights)
    x = _embeddings(g, epsilon)
    mask = _mask_bias(g)
    for n in range(config["num_hidden_layers"]):
        x = _layer(g, x, mask, n, heads, hidden, epsilon)
    g.nodes.append(helper.make_node("Identity", [x], [OUTPUT], name="output"))
    inputs = [helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"]) for name in INPUTS]
    output = helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT, ["batch", "sequence", hidden])
    graph = helper.make_graph(g.nodes, "all-MiniLM-L6-v2", inputs, [output], g.initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="boundloop")


def build_int8_onnx(model_dir: Path, target: Path) -> None:
    """Write the int8 model to `target` atomically (a temporary file in the same folder, then a rename)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    private_folder(target.parent)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        fp32, int8 = Path(tmp) / "fp32.onnx", Path(tmp) / "int8.onnx"
        onnx.save(fp32_model(model_dir), str(fp32))
        quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True)
        os.chmod(int8, FILE_MODE)
        os.replace(int8, target)
