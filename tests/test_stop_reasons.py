"""A model call the budget refuses closes the run from any working step, recorded once as the run's stop reason."""

import pytest

from boundloop.domain.trace import Span
from boundloop.policies.budget import BudgetExhausted
from boundloop.reasoners.offline import OfflineReasoner
from tests.loop_fixtures import make_runner

QUESTION = "Who is the Head of Finance?"
REFUSED_AFTER = 7
"""Tokens a refused step's failed call spent before the budget stopped it; they are booked all the same."""


class RefusedAt(OfflineReasoner):
    """The offline reasoner, except that one step's model call is refused by the budget."""

    def __init__(self, step: str) -> None:
        super().__init__()
        self.step = step

    def understand(self, *args, **kwargs):
        self._refuse("understand")
        return super().understand(*args, **kwargs)

    def plan(self, *args, **kwargs):
        self._refuse("plan")
        return super().plan(*args, **kwargs)

    def _refuse(self, step: str) -> None:
        if step == self.step:
            raise BudgetExhausted("tokens", tokens=REFUSED_AFTER)


def _streamed(runner, question: str = QUESTION):
    events = list(runner.stream(question, "bob"))
    spans = [span for kind, span in events if kind == "span" and isinstance(span, Span)]
    assert [kind for kind, _ in events][-1] == "result"
    return spans, events[-1][1]


@pytest.mark.parametrize("step", ["understand", "plan"])
def test_a_refused_model_call_closes_the_run_from_its_step(index, encoder, resolver, step):
    spans, result = _streamed(make_runner(index, encoder, resolver, reasoner=RefusedAt(step)))
    refused = next(s for s in spans if s.node == step)
    assert (refused.decision, refused.reason) == ("stop", "model call not sent: tokens limit")
    before = spans[spans.index(refused) - 1]
    assert refused.usage.tokens - before.usage.tokens == REFUSED_AFTER
    after = [s.node for s in spans[spans.index(refused) + 1:] if s.node != "governor"]
    assert after == ["synthesise", "verify", "respond"]  # the closing path, nothing else
    assert "retrieve" not in [s.node for s in spans]
    assert result.stop_reason == "tokens" and result.complete is False


def test_a_limit_found_by_the_governor_closes_the_run(index, encoder, resolver):
    spans, result = _streamed(make_runner(index, encoder, resolver, max_retrieval_calls=0))
    stop = next(s for s in spans if s.decision == "stop before retrieve")
    assert stop.node == "governor" and stop.reason.startswith("retrieval_calls limit reached")
    assert result.stop_reason == "retrieval_calls" and result.complete is False
