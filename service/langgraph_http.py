"""The FastAPI app as the LangGraph server mounts it (`http.app` in langgraph.json), sharing the graph's state.

Its middleware wraps the server's own routes too; `WithholdUnreadable` is there for theirs only: the thread and run
routes then show a caller nothing they may no longer read (`service.langgraph_reads`).
"""

from __future__ import annotations

from boundloop.service.app import create_app
from boundloop.service.langgraph_reads import WithholdUnreadable
from boundloop.service.state import shared_state

app = create_app(state_factory=shared_state)
app.add_middleware(WithholdUnreadable, state=shared_state)
