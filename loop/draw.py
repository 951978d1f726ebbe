"""Print the loop's graph as Mermaid, generated from the compiled graph itself: `python3 -m boundloop.loop.draw`."""

from __future__ import annotations

from boundloop.loop.builder import build_graph


def mermaid() -> str:
    return build_graph().get_graph().draw_mermaid()


if __name__ == "__main__":
    print(mermaid(), end="")
