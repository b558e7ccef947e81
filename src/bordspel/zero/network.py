"""The network (PyTorch, the ``train`` extra): a small residual tower with a policy and a value
head, as in AlphaZero, sized from the codec's planes and action count; and its export to ONNX.

Input: the planes ``(B, C, H, W)`` from the side to move. Outputs: the policy's scores, one
logit per action ``(B, A)`` (illegal ones are masked out by the caller) or, where the codec
gives the actions' parts, one score per part (an action's logit the sum of its parts', summed
only for the actions a caller asks for: :meth:`ZeroNet.logits_at`, ``search.policy_priors``),
and the value ``(B,)``, -1 to 1.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from bordspel.zero.search import Encoder, Evaluator, Floats, part_count, part_table, policy_priors

__all__ = ["NetworkShape", "ZeroNet", "export_onnx", "shape_of", "torch_evaluator"]


@dataclass(frozen=True)
class NetworkShape:
    """The input planes, board, actions, the tower's width and depth, and the channels per
    square the policy head reads its logits from."""

    channels: int
    rows: int
    cols: int
    actions: int
    width: int = 64
    blocks: int = 4
    policy_channels: int = 4
    parts: int = 0
    """The parts the policy head scores when an action's logit is the sum of its parts' (the
    codec's ``action_parts``); 0: it scores each action."""
    part_columns: int = 0
    """The most parts of an action."""


def shape_of(encoder: Encoder, parts: npt.NDArray[np.int64] | None, width: int, blocks: int) -> NetworkShape:
    """The network's shape for the encoder's game: its planes, actions and the codec's ``parts``."""
    channels, rows, cols = encoder.shape
    shape = NetworkShape(channels, rows, cols, encoder.actions, width, blocks)
    return shape if parts is None else replace(shape, parts=part_count(parts), part_columns=parts.shape[1])


class _Residual(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(width, width, 3, padding=1, bias=False),
            nn.BatchNorm2d(width),
            nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1, bias=False),
            nn.BatchNorm2d(width),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.body(x))


class ZeroNet(nn.Module):
    """The residual tower with its two heads."""

    def __init__(self, shape: NetworkShape, parts: npt.NDArray[np.int64] | None = None) -> None:
        """``parts``: the codec's ``action_parts`` when ``shape`` has parts (they are not part
        of the weights, nor of the exported network)."""
        super().__init__()
        self.shape = shape
        width, cells = shape.width, shape.rows * shape.cols
        self.stem = nn.Sequential(
            nn.Conv2d(shape.channels, width, 3, padding=1, bias=False), nn.BatchNorm2d(width), nn.ReLU()
        )
        self.tower = nn.Sequential(*(_Residual(width) for _ in range(shape.blocks)))
        heads = shape.policy_channels
        self.policy = nn.Sequential(
            nn.Conv2d(width, heads, 1, bias=False), nn.BatchNorm2d(heads), nn.ReLU(), nn.Flatten(),
            nn.Linear(heads * cells, shape.parts or shape.actions),
        )  # fmt: skip
        self.table = part_table(parts) if shape.parts else None
        """The parts of each action (``search.part_table``), None when it scores actions."""
        if self.table is not None:
            self.register_buffer("parts", torch.from_numpy(self.table), persistent=False)
        self.value = nn.Sequential(
            nn.Conv2d(width, 2, 1, bias=False), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(),
            nn.Linear(2 * cells, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh(),
        )  # fmt: skip

    def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        trunk = self.tower(self.stem(planes))
        return self.policy(trunk), self.value(trunk).squeeze(-1)

    def logits_at(self, scores: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        """The logits ``(B, L)`` of ``actions`` ``(B, L)`` from the policy's ``scores``."""
        if self.table is None:
            return scores.gather(1, actions)
        padded = torch.cat([scores, torch.zeros_like(scores[:, :1])], dim=1)
        parts = self.get_buffer("parts")[actions]  # (B, L, J)
        return padded.gather(1, parts.flatten(1)).view(parts.shape).sum(dim=2)


def torch_evaluator(net: ZeroNet, device: torch.device) -> Evaluator:
    """The network as the search's evaluator (in evaluation mode, without gradients)."""

    def evaluate(planes: Floats, masks: np.ndarray) -> tuple[Floats, Floats]:
        net.eval()
        with torch.inference_mode():
            scores, values = net(torch.from_numpy(planes).to(device))
        return policy_priors(scores.float().cpu().numpy(), masks, net.table), values.float().cpu().numpy()

    return evaluate


def export_onnx(net: ZeroNet, path: Path, metadata: dict[str, Any]) -> None:
    """Write the network to ``path`` as ONNX (inputs ``planes``; outputs ``logits``, ``value``),
    with ``metadata`` (the game, its options, the shape) in the model's properties."""
    import onnx

    shape = net.shape
    example = torch.zeros(1, shape.channels, shape.rows, shape.cols)
    net = net.to("cpu").eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".part")
    torch.onnx.export(
        net,
        (example,),
        str(partial),
        input_names=["planes"],
        output_names=["logits", "value"],
        dynamic_axes={"planes": {0: "batch"}, "logits": {0: "batch"}, "value": {0: "batch"}},
        dynamo=False,
    )
    model = onnx.load(str(partial))
    for key, value in {**metadata, "shape": asdict(shape)}.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, json.dumps(value, default=str)
    onnx.save(model, str(partial))
    partial.replace(path)
