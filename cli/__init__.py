"""The `boundloop` command line."""

__version__ = "0.1.0"
"""The package version (pyproject.toml reads it from here)."""
