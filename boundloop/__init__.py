"""boundloop: enterprise generative search with a bounded agentic loop.

Every module lives under this one import package. In the repository the layers keep their own top-level folders
(`graph/`, `nodes/`, `policies/`, ...); `boundloop/` holds a relative symbolic link to each, so the same import names
(`boundloop.loop.builder`) work in the checkout, under mypy and pytest, and in the installed wheel, where the files
are copied in.
"""

__version__ = "0.1.0"
"""The package version (pyproject.toml reads it from here)."""
