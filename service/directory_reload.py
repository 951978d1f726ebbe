"""The directory file, reloaded while the server runs: removing a group or a user takes effect without a restart.

`ReloadingDirectory.current()` checks the file at most once per interval (a second by default) and a background
thread checks it every interval too, so a change is live within about a second whether or not requests arrive.
A changed file is parsed and validated in full before it replaces the current directory, in one assignment; a
file that is broken (unreadable, invalid, a duplicated key digest, published demo keys) keeps the last good
directory in force and logs why, once per version of the file.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from boundloop.policies.entitlements import Directory
from boundloop.policies.errors import DirectoryError

log = logging.getLogger(__name__)
CHECK_INTERVAL_S = 1.0
RACY_WINDOW_S = 2.0  # a file modified this recently is re-read even if its size and mtime look unchanged

Signature = tuple[int, int, int, int]


def _signature(path: Path) -> Signature | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino, stat.st_dev)


class ReloadingDirectory:
    """A `DirectorySource` over a directory file that picks up every valid change to it."""

    def __init__(self, path: str | Path, validate: Callable[[Directory], None] = lambda directory: None,
                 interval_s: float = CHECK_INTERVAL_S, clock: Callable[[], float] = time.monotonic) -> None:
        """Load the file now; a broken file at startup is a `DirectoryError` (there is no last good one)."""
        self.path = Path(path)
        self._validate = validate
        self._interval_s = interval_s
        self._clock = clock
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._signature = _signature(self.path)
        raw = self._read()
        self._digest = hashlib.sha256(raw).digest()
        self._directory = self._parse(raw)
        self._checked = clock()
        self._reported: object = None  # the version of the file whose problem was logged last

    def current(self) -> Directory:
        """The directory as the file says now (checked at most once per interval), or the last good one."""
        if self._clock() - self._checked >= self._interval_s:
            self.refresh()
        return self._directory

    def refresh(self) -> bool:
        """Check the file now; True if a new directory took effect."""
        with self._lock:
            self._checked = self._clock()
            signature = _signature(self.path)
            recently = signature is not None and time.time() - signature[0] / 1e9 < RACY_WINDOW_S
            if signature == self._signature and not recently:
                return False
            try:
                raw = self._read()
                digest = hashlib.sha256(raw).digest()
                if digest == self._digest:
                    self._signature = signature
                    return False
                directory = self._parse(raw)
            except DirectoryError as exc:
                version = (signature, str(exc))
                if version != self._reported:
                    self._reported = version
                    log.error("directory %s not reloaded, keeping the last good one: %s", self.path, exc)
                return False
            self._directory, self._signature, self._digest, self._reported = directory, signature, digest, None
        log.warning("directory %s reloaded: %d users", self.path, len(directory.users))
        return True

    def _read(self) -> bytes:
        try:
            return self.path.read_bytes()
        except OSError as exc:
            raise DirectoryError(f"cannot read directory file {self.path}: {exc.strerror or exc}") from None

    def _parse(self, raw: bytes) -> Directory:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise DirectoryError(f"directory file {self.path} is not UTF-8 text") from None
        directory = Directory.parse(text, self.path)
        self._validate(directory)
        return directory

    def watch(self) -> None:
        """Check the file every interval on a daemon thread too, so problems are logged while the server idles."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="directory-reload", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._interval_s):
            try:
                self.refresh()
            except Exception:  # the watcher must outlive any surprise; requests still refresh on their own
                log.exception("directory %s: check failed", self.path)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

