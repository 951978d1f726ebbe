"""The one error the dataset loaders raise: a missing file or a malformed row, named by file and line."""


class DatasetError(ValueError):
    """A dataset file is missing, unreadable or malformed; the message names the file and, if known, the line."""
