"""A LangChain `BaseRetriever` over the index, with the principal fixed when it is built."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document as LCDocument
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, PrivateAttr

from boundloop.domain.models import SearchMode
from boundloop.retrieval.search import EntitledSearcher


class EntitledRetriever(BaseRetriever):
    """Hybrid, entitlement-trimmed retrieval for one principal; fits any LangChain chain.

    Build it with `EntitledRetriever.for_searcher(searcher)`; the searcher carries the access filter and the
    retriever exposes no way to change it.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    k: int = 5
    mode: SearchMode = "hybrid"
    _searcher: EntitledSearcher = PrivateAttr()

    @classmethod
    def for_searcher(cls, searcher: EntitledSearcher, **kwargs: Any) -> EntitledRetriever:
        retriever = cls(**kwargs)
        retriever._searcher = searcher
        return retriever

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[LCDocument]:
        return [
            LCDocument(
                page_content=hit.text,
                id=hit.chunk_id,
                metadata=hit.model_dump(exclude={"text", "units"}),
            )
            for hit in self._searcher.search(query, k=self.k, mode=self.mode)
        ]
