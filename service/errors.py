"""Errors the service turns into HTTP answers; every message is safe to show to the caller who caused it."""

from __future__ import annotations

from boundloop.policies.errors import BoundloopError


class ServiceError(BoundloopError):
    """A request the service refuses; `status_code` is the HTTP status it answers with."""

    status_code = 400


class AuthenticationFailed(ServiceError):
    """No credential, or one that matches nobody: 401, without saying which users exist."""

    status_code = 401


class Forbidden(ServiceError):
    """An authenticated caller asking for something their groups do not allow."""

    status_code = 403


class NotFound(ServiceError):
    """No such resource for this caller; another user's run is reported the same way."""

    status_code = 404


class Conflict(ServiceError):
    """The resource is not in a state that allows the request (feedback on a run that has not finished)."""

    status_code = 409


class InvalidInput(ServiceError):
    """A well-formed request whose content cannot be used."""

    status_code = 422


class UnsupportedMediaType(ServiceError):
    """A body in a format the route does not read."""

    status_code = 415


class DirectoryUnavailable(ServiceError):
    """The group directory (LDAP) cannot be asked and the groups last read from it are too old to use."""

    status_code = 503
