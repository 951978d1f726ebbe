"""LangSmith clients and examples: a local, offline client by default; the real service only for --upload."""

from __future__ import annotations

import os
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langsmith import Client
from langsmith.schemas import Example

from boundloop.policies.errors import BoundloopError

_NAMESPACE = uuid.UUID("5b0c3a52-7f3e-4a57-9a40-1d1f3e0c6b21")


@dataclass(frozen=True)
class ExampleData:
    """One question as a LangSmith example: what the target gets, and what the evaluators score against."""

    qid: str
    inputs: dict[str, Any]
    outputs: dict[str, Any]


def local_client() -> Client:
    """A client that never touches the network: known server info, no batch tracing, an unroutable URL.

    `evaluate(..., upload_results=False)` with it keeps runs, feedback and summaries in memory.
    """
    return Client(api_key="local-only", api_url="http://127.0.0.1:9", info={}, auto_batch_tracing=False)


def upload_client() -> Client:
    """The LangSmith service client, configured from the environment; refuses to start without an API key."""
    if not os.environ.get("LANGSMITH_API_KEY"):
        raise BoundloopError("--upload needs LANGSMITH_API_KEY set; without it evals run locally (drop --upload)")
    return Client()


def local_examples(dataset_name: str, items: Sequence[ExampleData]) -> list[Example]:
    """In-memory examples with ids stable across reruns (derived from the dataset name and question id)."""
    dataset_id = uuid.uuid5(_NAMESPACE, dataset_name)
    return [
        Example(id=uuid.uuid5(dataset_id, item.qid), dataset_id=dataset_id, inputs=item.inputs, outputs=item.outputs)
        for item in items
    ]


def uploaded_examples(client: Client, dataset_name: str, items: Sequence[ExampleData]) -> list[Example]:
    """The examples of the LangSmith dataset `dataset_name`, created from `items` the first time."""
    if not client.has_dataset(dataset_name=dataset_name):
        dataset = client.create_dataset(dataset_name, description="boundloop offline eval questions")
        client.create_examples(
            dataset_id=dataset.id,
            examples=[{"inputs": item.inputs, "outputs": item.outputs} for item in items],
        )
    return list(client.list_examples(dataset_name=dataset_name))
