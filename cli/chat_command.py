"""`boundloop chat --user NAME`: an interactive conversation, follow-ups included, in the terminal.

Line editing and the session's history come from readline (arrow keys, Ctrl-R). `/new` starts a new conversation,
`/quit` (or Ctrl-D) leaves. Each answer is printed with its sources under it. Ctrl-C while a question runs cancels it
(the run is recorded as interrupted) and the session goes on; Ctrl-C at the prompt clears the line.
"""

from __future__ import annotations

import argparse
import signal
import threading
from collections.abc import Callable
from typing import Any

from boundloop.cli.inputs import add_location_args
from boundloop.cli.result_text import print_result
from boundloop.domain.result import RunResult
from boundloop.loop.workspace import Workspace
from boundloop.policies.errors import BoundloopError, UnknownConversation

PROMPT = "you> "
HELP = "/new starts a new conversation, /quit leaves; Ctrl-C cancels a running question"
Ask = Callable[[str, str, str | None], RunResult]


def add_chat(p: argparse.ArgumentParser) -> None:
    p.add_argument("--user", required=True, help="the user to ask as (from the directory)")
    add_location_args(p)
    p.set_defaults(run=run_chat)


def _line_editing() -> None:
    try:
        import readline  # noqa: F401  (input() edits lines and keeps this session's history once it is loaded)
    except ImportError:  # not on every platform; input() still works
        pass


def run_chat(args: argparse.Namespace) -> int:
    workspace = Workspace.open(args.index, args.directory)
    workspace.resolver.resolve(args.user)  # an unknown user is an error before the first prompt
    runner = workspace.runner
    _line_editing()
    print(f"Asking as {args.user}. {HELP}.")
    return chat(args.user, runner.ask, input)


def chat(user: str, ask: Ask, read: Callable[[str], str]) -> int:
    """The session: read a line, answer it within the current conversation, until /quit or end of input."""
    conversation: str | None = None
    while True:
        try:
            line = read(PROMPT).strip()
        except EOFError:
            print()
            return 0
        except KeyboardInterrupt:  # at the prompt: a fresh line, as shells do
            print()
            continue
        if not line:
            continue
        if line in ("/quit", "/exit"):
            return 0
        if line == "/new":
            conversation = None
            print("(a new conversation)")
            continue
        if line.startswith("/"):
            print(f"unknown command {line.split()[0]!r}: {HELP}")
            continue
        try:
            conversation = _answer(user, ask, line, conversation)
        except KeyboardInterrupt:  # while the answer prints: the session goes on, as at the prompt
            print()


class _Interrupts:
    """Whether Ctrl-C was pressed while the block ran (it still interrupts it, as Python's own handler does).

    A Ctrl-C landing inside a library (loading the encoder, a database write) may come out as another error there: a
    question the user cancelled is cancelled, whatever it raised. Only in the main thread, where signals arrive.
    """

    def __init__(self) -> None:
        self.pressed = False
        self._previous: Any = None

    def __enter__(self) -> _Interrupts:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._pressed)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)

    def _pressed(self, signum: int, frame: Any) -> None:
        self.pressed = True
        raise KeyboardInterrupt


def _answer(user: str, ask: Ask, question: str, conversation: str | None) -> str | None:
    """Ask one question; the conversation to go on with (unchanged if the question was cancelled or refused)."""
    interrupts = _Interrupts()
    try:
        with interrupts:
            result = ask(question, user, conversation)
    except KeyboardInterrupt:
        print("\n(cancelled)")
        return conversation
    except UnknownConversation:
        print("(that conversation is gone: ask again to start a new one)")
        return None
    except BoundloopError as exc:
        print(f"error: {exc}")
        return conversation
    except Exception:
        if not interrupts.pressed:
            raise
        print("\n(cancelled)")  # the Ctrl-C came out of a library as another error: still the user's cancel
        return conversation
    print()
    print_result(result, question)
    print()
    return result.conversation_id
