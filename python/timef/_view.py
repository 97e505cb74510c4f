"""timef.view(): serve a release to the browser from Python (docs/view.md)."""

import sys

from . import _timef


class ViewServer:
    """A running `timef view` server: `url`, `port`, `stop()`; a context manager that stops it.

    It serves on threads of its own until stop() (or the end of the `with` block, or the
    interpreter's exit)."""

    def __init__(self, native):
        self._native = native

    @property
    def url(self):
        """http://HOST:PORT/ (raises once stopped)."""
        return self._native.url

    @property
    def port(self):
        return self._native.port

    @property
    def running(self):
        return self._native.running

    def stop(self):
        """Stops serving (idempotent)."""
        self._native.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def __repr__(self):
        return f"ViewServer({self.url!r})" if self.running else "ViewServer(stopped)"


def view(release, port=0, host="127.0.0.1", sources_root=None):
    """Serves the release directory `release` on http://HOST:PORT/ (port 0: a free one) and
    returns the running ViewServer. Binds loopback unless `host` says otherwise, and warns on
    stderr when it does: anyone who can reach the address reads the whole release."""
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise _timef.ValidationError(f"view: port is an int in 0..65535, got {port!r}")
    if not _timef._is_loopback(host):
        print(f"WARNING: timef.view is listening on {host}, not on loopback: anyone who can "
              "reach this address can read the whole release.", file=sys.stderr)
    return ViewServer(_timef._ViewServer(str(release), host, port,
                                         None if sources_root is None else str(sources_root)))
