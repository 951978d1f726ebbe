"""A client that disconnects mid-stream cancels its run: recorded cancelled, and no step runs after it ends."""

from __future__ import annotations

from tests.service.conftest import make_state
from tests.service.stream_cancel import SlowReasoner, leave_after_first_event, uvicorn_server


def test_a_client_that_leaves_after_the_first_event_cancels_its_run(index, encoder, tmp_path):
    reasoner = SlowReasoner()
    state = make_state(index, encoder, tmp_path, reasoner=reasoner)
    with uvicorn_server(state) as base:
        left = leave_after_first_event(base, state, reasoner)
        print(f"disconnect to the run's end: {left.seconds_to_end} s")
    assert left.status == "cancelled" and left.seconds_to_end is not None
    assert left.calls_after <= left.calls_when_left + 1  # at most the step under way when the client left
    assert left.view["cancelled"] is True and left.view["finished"] is False and left.view["interrupted"] is False
    assert state.store.finished_runs() == []  # a cancelled run is not counted as finished (stats)
