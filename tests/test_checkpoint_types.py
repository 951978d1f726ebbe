"""Every model the loop's state or result can hold is one the checkpoint serialiser restores.

A model missing from `CHECKPOINT_TYPES` is refused when a checkpoint is read back (LangGraph logs "Blocked
deserialization" and the value is lost), so a new field of the result or the state must bring its type along.
"""

from __future__ import annotations

import typing

from pydantic import BaseModel

from boundloop.domain.result import RunResult
from boundloop.graph.state import LoopState
from boundloop.runstore.serde import CHECKPOINT_TYPES


def _models(annotation: object, seen: set[type]) -> set[type]:
    """The pydantic models an annotation can hold, their fields' models included."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation not in seen:
            seen.add(annotation)
            for field in annotation.model_fields.values():
                _models(field.annotation, seen)
        return seen
    for arg in typing.get_args(annotation):
        _models(arg, seen)
    return seen


def test_every_model_of_the_state_and_result_is_restored_from_a_checkpoint():
    found: set[type] = set()
    for annotation in typing.get_type_hints(LoopState, include_extras=True).values():
        _models(annotation, found)
    _models(RunResult, found)
    found.discard(RunResult)  # the result is written as its fields, each an output channel
    assert found, "no models found: the scan is broken"
    missing = sorted(t.__name__ for t in found - set(CHECKPOINT_TYPES))
    assert not missing


def test_the_scan_finds_a_model_nested_in_a_list():
    from boundloop.domain.models import ClaimReading

    assert ClaimReading in _models(RunResult, set())
