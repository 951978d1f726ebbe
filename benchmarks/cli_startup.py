"""How long `boundloop --help` takes: the median of N fresh processes, beside a bare `python -c pass`.

    python3 benchmarks/cli_startup.py [--runs 21]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "boundloop --help": [sys.executable, "-m", "boundloop", "--help"],
    "boundloop --version": [sys.executable, "-m", "boundloop", "--version"],
    "boundloop ask --help": [sys.executable, "-m", "boundloop", "ask", "--help"],
}


def median_seconds(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    print("| command | median s |\n| --- | ---: |")
    for name, command in COMMANDS.items():
        print(f"| `{name}` | {median_seconds(command, args.runs):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
