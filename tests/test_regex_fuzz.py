"""Every pattern the reader runs stays fast on long, repetitive, unpunctuated text (no catastrophic backtracking).

The patterns are collected from the reading layers (module-level compiled patterns and literal patterns passed to
`re`), then run (search and findall) over adversarial texts as long as the longest unit the chunker lets through,
with white space folded as intake and the chunker fold it. A pattern that backtracks exponentially takes minutes
here; the check is a hang detector run in a child process, with a bound far above what linear patterns need.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HANG_SECONDS = 300  # every pattern over every text takes a few seconds; an exponential one, minutes per text

FUZZ = r'''
import ast, importlib, random, re, sys, time
from pathlib import Path
from boundloop.domain.sentences import MAX_SENTENCE_CHARS
root = Path(sys.argv[1])
patterns = {}
for package in ("reasoners", "policies", "domain", "retrieval", "nodes", "graph"):
    for path in sorted((root / package).rglob("*.py")):
        module = importlib.import_module("boundloop." + ".".join(path.relative_to(root).with_suffix("").parts))
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                patterns[(value.pattern, value.flags)] = f"{module.__name__}.{name}"
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and getattr(node.func.value, "id", None) == "re" and node.args):
                try:
                    literal = ast.literal_eval(node.args[0])
                except ValueError:
                    continue
                if isinstance(literal, str):
                    patterns.setdefault((literal, 0), f"{module.__name__}:{node.lineno}")
random.seed(7)
n = MAX_SENTENCE_CHARS
words = "the staff office policy leave days approval manager budget claim travel rate hours".split()
texts = [
    " ".join(random.choice(words) for _ in range(n)),
    " ".join(random.choice(words).capitalize() for _ in range(n)),
    "Head of the " * n, "1234,567.89 " * n, "a." * n, "A. " * n, "x" * n, "x" * (n - 1) + "!", "-" * n,
    "| a " * n, "Lisbon " * (n // 7 - 1) + "?!",
    " ".join(random.choice(["Room", "1.2", "v2", "of", "the", "A.", "@", "x-y", "or", "and", "by", "Q:"])
             for _ in range(n)),
]
texts = [" ".join(t.split())[-n:] for t in texts]
print(len(patterns), "patterns", flush=True)
for (pattern, flags), where in patterns.items():
    compiled = re.compile(pattern, flags)
    for text in texts:
        compiled.search(text)
        compiled.findall(text)
    print("ok", where, flush=True)
'''


@pytest.mark.slow
def test_no_pattern_backtracks_catastrophically_on_long_repetitive_text():
    try:
        done = subprocess.run([sys.executable, "-c", FUZZ, str(ROOT)], capture_output=True, text=True,
                              timeout=HANG_SECONDS, cwd=ROOT)
    except subprocess.TimeoutExpired as hung:
        last = (hung.stdout or b"").decode().strip().splitlines()[-1:] if hung.stdout else []
        pytest.fail(f"a pattern did not finish after the last one checked: {last}")
    assert done.returncode == 0, done.stderr[-2000:]
    first = done.stdout.splitlines()[0]
    assert int(first.split()[0]) > 300  # the collection found the reader's patterns
