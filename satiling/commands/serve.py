"""``satiling serve``: the web app (:mod:`satiling.web`) under uvicorn.

It prints its address and opens nothing (as Jupyter and TensorBoard do).  It listens on 127.0.0.1
unless told otherwise; on any other address every API request needs the token it prints with the
address.  Ctrl-C stops it: the runs still going are stopped, each keeping what it found in the store
(Ctrl-C again only repeats the request: the store is closed before the command ends).  One server
per store: a second on a store in use is refused.
"""
from __future__ import annotations

import argparse
import contextlib
import ipaddress
import secrets
import signal
import socket
import sqlite3
import sys
from typing import Any, Callable, Iterator

from ..errors import SatilingError
from ..exits import signal_exit

DEFAULT_PORT = 8765
DEFAULT_STORE = "satiling-runs.sqlite"


def register(sub) -> None:
    s = sub.add_parser("serve", help="start the web app (pose, see, solve and browse puzzles in a browser)",
                       description="Start the web app and print its address; Ctrl-C stops it. "
                                   "Its pages: Pose (choose, draw or generate a puzzle), See (the "
                                   "puzzle, its facts, pieces placed by hand), Watch (runs as they "
                                   "go) and Browse (the solutions a run kept).")
    s.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; any other needs the printed token)")
    s.add_argument("--store", default=DEFAULT_STORE, metavar="FILE",
                   help=f"the SQLite file of runs and solutions (default ./{DEFAULT_STORE})")
    s.add_argument("--dask", metavar="ADDRESS",
                   help="run the maximisations on the Dask cluster of this scheduler (one search "
                   "per worker thread), e.g. tcp://host:8786")
    s.set_defaults(run=cmd_serve)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
        from ..web import create_app
        from ..web.store import Store, StoreLock
    except ImportError as e:
        raise SatilingError(f"the web app needs {e.name}: pip install starlette uvicorn") from None
    if not 0 < args.port < 65536:
        raise SatilingError(f"--port is from 1 to 65535, not {args.port}")
    if args.dask is not None:
        reachable(args.dask)                          # a cluster that is not there: one line now
    token = None if is_loopback(args.host) else secrets.token_urlsafe(24)
    sock = listening_socket(args.host, args.port)     # bound before the store is opened or the address printed
    try:
        lock = StoreLock(args.store)                  # one server per store: a second is refused here
        Store(args.store, lock).close(release=False)  # one that cannot be opened too (the app opens it again)
        app = create_app(args.store, token=token, lock=lock, dask=args.dask)
    except (OSError, sqlite3.Error) as e:
        sock.close()
        raise SatilingError(f"{args.store}: cannot open the store: {getattr(e, 'strerror', None) or e}") from None
    except SatilingError:
        sock.close()
        raise
    shown = f"[{args.host}]" if ":" in args.host else args.host
    address = f"http://{shown}:{args.port}/"
    print(f"satiling: serving on {address}" + (f"?token={token}" if token else ""), flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=5)
    server = quiet_server(uvicorn.Server)(config)
    server.on_exit = app.state.closing.set              # the pages' event streams end first
    signals = server.run_until_signalled(sockets=[sock])
    if signals:
        print("satiling: interrupted" if signals[0] == signal.SIGINT else "satiling: terminated",
              file=sys.stderr)
        return signal_exit(signals[0])
    print("satiling: stopped", file=sys.stderr)
    return 0


def reachable(address: str) -> None:
    """The Dask scheduler at ``address`` answers (SatilingError, one line, if not within
    :data:`~satiling.search.workers.DASK_TIMEOUT` seconds)."""
    from ..search.workers import dask_client
    with dask_client(address):
        pass


def quiet_server(base: type) -> type:
    """uvicorn's server with satiling's way with signals: every Ctrl-C or SIGTERM, however many
    and however close together, asks for the one graceful stop (the runs stopped, what they found
    stored, the store closed), never a forced exit halfway through it; and none is raised again
    once the server has stopped (uvicorn raises it again, into whatever runs then: a traceback).
    The command says which signal stopped it and exits 130 / 143."""

    class Server(base):  # type: ignore[misc, valid-type]
        received: list[int]
        on_exit: Callable[[], None] = staticmethod(lambda: None)

        def handle_exit(self, sig: int, frame: Any) -> None:
            self.received.append(sig)
            self.should_exit = True
            self.on_exit()

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield                         # the handlers are run_until_signalled's, around it all

        def run_until_signalled(self, sockets: list[socket.socket]) -> list[int]:
            self.received = []
            held = {sig: signal.signal(sig, self.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM)}
            try:
                self.run(sockets=sockets)
            finally:
                for sig, previous in held.items():
                    signal.signal(sig, previous)
            return self.received
    return Server


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, or one line saying why not."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as e:
        raise SatilingError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock
