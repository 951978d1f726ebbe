"""The `boundloop` command line."""
