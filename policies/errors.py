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


class StoreUnwritable(BoundloopError):
    """A store (the index or the run store) cannot write: its disk is full, or it is read-only. Nothing was written."""


class StoreDamaged(BoundloopError):
    """A database file is damaged; the message names the file and what to do."""


class UnknownConversation(BoundloopError):
    """No such conversation for this user: another user's conversation is reported the same way."""
