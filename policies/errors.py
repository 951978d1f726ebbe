"""Exceptions raised by the wardens; each message is safe to show to the user who caused it."""


class BoundloopError(Exception):
    """Base class for errors that reach a user as a clear message instead of a traceback."""


class EntitlementError(BoundloopError):
    """The asking user could not be turned into an access filter: the request is denied."""


class UnknownUserError(EntitlementError):
    """The user is not in the directory."""


class DirectoryError(EntitlementError):
    """The directory file is missing or malformed."""


class StepOrderError(BoundloopError):
    """A run asked for a step that may not follow the last one (its state was changed from outside the loop)."""
