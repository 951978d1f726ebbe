import re
from pathlib import Path

from boundloop.loop.draw import mermaid


def test_readme_graph_is_generated_from_the_graph():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("## How the loop decides", 1)[1]
    drawn = re.search(r"```mermaid\n(.*?)```", section, re.DOTALL)
    assert drawn and drawn.group(1) == mermaid()


def test_readme_commands_table_lists_every_command():
    from boundloop.cli.commands import COMMANDS

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    table = readme.split("## Commands", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `boundloop (\w+)", table, re.MULTILINE))
    assert listed == {c.name for c in COMMANDS}, "the README's Commands table and cli/commands.py disagree"
