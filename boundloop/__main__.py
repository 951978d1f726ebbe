"""`python -m boundloop`: the same as the `boundloop` command."""

import sys

from boundloop.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
