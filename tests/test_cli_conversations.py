"""`ask --conversation`, `chat` and `feedback` on the demo corpus through the real CLI stack."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time

import pytest

from boundloop.cli.chat_command import chat
from boundloop.cli.main import main
from boundloop.reasoners.offline import OfflineReasoner
from tests.loop_fixtures import make_runner

pytestmark = pytest.mark.slow
LEAVE = "How many days of annual leave do Lisbon employees get?"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ask_continues_a_conversation_of_the_same_user(capsys, demo_cache):
    code, out, _ = run(capsys, "ask", LEAVE, "--user", "alice", "--json")
    first = json.loads(out)
    assert code == 0 and first["standalone_question"] == LEAVE
    code, out, _ = run(capsys, "ask", "And in Toronto?", "--user", "alice", "--conversation", first["conversation_id"])
    assert code == 0 and out.startswith("(understood as: How many days of annual leave do Toronto employees get?)")
    assert "20 working days" in out and f"conversation {first['conversation_id']}" in out
    code, out, err = run(capsys, "ask", "And in Toronto?", "--user", "bob", "--conversation", first["conversation_id"])
    assert code == 2 and out == "" and err.strip() == f"boundloop: error: no conversation {first['conversation_id']}"
    code, _, err = run(capsys, "ask", "--batch", "x.jsonl", "--conversation", first["conversation_id"])
    assert code == 2 and "--conversation" in err


def test_feedback_is_stored_counted_and_checked(capsys, demo_cache):
    _, out, _ = run(capsys, "ask", LEAVE, "--user", "alice", "--json")
    run_id = json.loads(out)["run_id"]
    code, out, _ = run(capsys, "feedback", run_id, "--score", "-1", "--comment", "It should say 25 days.")
    assert code == 0 and out.strip() == f"rated run {run_id} -1: It should say 25 days."
    code, out, _ = run(capsys, "feedback", run_id, "--score", "1")
    assert code == 0 and out.strip() == f"rated run {run_id} +1"
    _, out, _ = run(capsys, "stats", "--json")
    stats = json.loads(out)
    assert stats["feedback"]["rated"] >= 1 and stats["feedback_by_class"]["lookup"]["rated"] >= 1
    _, out, _ = run(capsys, "stats")
    assert "rated helpful per class: " in out
    for argv, message in ((["feedback", "0" * 32, "--score", "1"], "no run"),
                          (["feedback", run_id, "--score", "1", "--comment", "x" * 2001], "2,000 characters")):
        code, _, err = run(capsys, *argv)
        assert code == 2 and message in err
    with pytest.raises(SystemExit) as refused:
        main(["feedback", run_id, "--score", "0"])
    assert refused.value.code == 2


class CancelledOnce(OfflineReasoner):
    """Ctrl-C arrives while the first question runs (in understand); later questions run normally."""

    pressed = False

    def understand(self, question, budget):
        if not CancelledOnce.pressed:
            CancelledOnce.pressed = True
            raise KeyboardInterrupt
        return super().understand(question, budget)


def test_ctrl_c_cancels_the_running_question_and_the_session_goes_on(capsys, tmp_path, index, encoder, resolver):
    runner = make_runner(index, encoder, resolver, tmp_path=tmp_path, reasoner=CancelledOnce())
    lines = iter(["Who is the Head of Finance?", "Who is the Head of Finance?", "Where does she sit?", "/new",
                  "Where does she sit?", "/nope", "/quit", "never read"])
    assert chat("bob", runner.ask, lambda prompt: next(lines)) == 0
    out = capsys.readouterr().out
    assert out.count("(cancelled)") == 1 and runner.store.count("interrupted") == 1
    assert "(understood as: Where does Priya Raman sit?)" in out and "Sources:" in out and "room 3.12" in out
    assert "(a new conversation)" in out and out.count("(understood as:") == 1  # after /new, "she" is nobody
    assert "unknown command '/nope'" in out


def test_ctrl_c_while_an_answer_prints_keeps_the_session(capsys, monkeypatch, tmp_path, index, encoder, resolver):
    from boundloop.cli import chat_command

    runner = make_runner(index, encoder, resolver, tmp_path=tmp_path)
    printed = iter([KeyboardInterrupt(), None])

    def print_result(result, question):
        if (pressed := next(printed)) is not None:
            raise pressed
        print(f"printed: {result.short_answer}")

    monkeypatch.setattr(chat_command, "print_result", print_result)
    lines = iter(["Who is the Head of Finance?", "Who is the Head of Finance?", "/quit"])
    try:
        assert chat("bob", runner.ask, lambda prompt: next(lines)) == 0
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C while an answer printed ended the session")
    assert capsys.readouterr().out.count("printed:") == 1


def test_a_conversation_deleted_during_the_session_is_said_and_the_next_question_starts_anew(capsys, tmp_path, index,
                                                                                           encoder, resolver):
    runner = make_runner(index, encoder, resolver, tmp_path=tmp_path)
    asked: list[str | None] = []

    def ask(question, user, conversation):
        asked.append(conversation)
        if len(asked) == 2:  # deleted elsewhere (the web page, the API) before the follow-up
            runner.store.delete_conversation(conversation)
        return runner.ask(question, user, conversation)

    lines = iter(["Who is the Head of Finance?", "Where does she sit?", "Who is the Head of People?", "/quit"])
    assert chat("bob", ask, lambda prompt: next(lines)) == 0
    out = capsys.readouterr().out
    assert "(that conversation is gone: ask again to start a new one)" in out
    assert asked[0] is None and asked[1] is not None and asked[2] is None


def test_an_error_a_ctrl_c_causes_inside_the_run_is_a_cancel_and_other_errors_are_not(capsys):
    """Ctrl-C landing inside a library (an encoder load, a database write) may come out as another error."""
    asked = []

    def ask(question, user, conversation):
        asked.append(question)
        if question == "cancelled":
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(1)
            except KeyboardInterrupt:
                raise ValueError("generator already executing") from None
        if question == "broken":
            raise ValueError("a real bug")
        raise AssertionError("not asked")

    lines = iter(["cancelled", "broken"])
    before = signal.getsignal(signal.SIGINT)  # Python's default, or SIG_IGN under nohup or `&`
    with pytest.raises(ValueError, match="a real bug"):  # no Ctrl-C: the error is reported, not swallowed
        chat("bob", ask, lambda prompt: next(lines))
    assert asked == ["cancelled", "broken"] and capsys.readouterr().out.count("(cancelled)") == 1
    assert signal.getsignal(signal.SIGINT) == before  # the handler in force before the chat is back


def test_chat_ends_at_end_of_input_and_a_ctrl_c_at_the_prompt_clears_the_line(capsys):
    keys = iter([KeyboardInterrupt(), EOFError()])

    def read(prompt):
        raise next(keys)

    assert chat("bob", lambda *a: pytest.fail("nothing to ask"), read) == 0


def test_chat_in_a_terminal(demo_cache):
    """The real command under a pseudo-terminal (readline line editing): a question, a follow-up cancelled with
    Ctrl-C, the follow-up again, /quit."""
    env = {**os.environ, "BOUNDLOOP_CACHE": str(demo_cache), "HF_HUB_OFFLINE": "1", "LANGSMITH_TRACING": "false"}
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "boundloop", "chat", "--user", "alice"], stdin=follower,
                            stdout=follower, stderr=follower, env=env, start_new_session=True)
    os.close(follower)
    seen = b""

    def until(marker: bytes, timeout: float = 120.0) -> None:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while marker not in seen:
            assert time.monotonic() < deadline, seen.decode(errors="replace")[-2000:]
            if select.select([leader], [], [], 0.5)[0]:
                try:
                    seen += os.read(leader, 65536)
                except OSError:  # the session ended: say how, with what it printed
                    pytest.fail(f"chat exited ({proc.poll()}): {seen.decode(errors='replace')[-2000:]}")

    try:
        until(b"you> ")
        os.write(leader, (LEAVE + "\r").encode())
        until(b"25 working days")
        os.write(leader, b"And in Toronto?\r")
        time.sleep(0.05)
        os.kill(proc.pid, signal.SIGINT)  # mid-question, or at the next prompt: either way the session goes on
        time.sleep(0.5)
        os.write(leader, b"And in Toronto?\r")
        until(b"20 working days")
        os.write(leader, b"/quit\r")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)
    assert b"Traceback" not in seen
