"""``satiling serve``: the web app (:mod:`satiling.web`) under uvicorn.

It prints its address and opens nothing (as Jupyter and TensorBoard do).  It listens on 127.0.0.1
unless told otherwise; on any other address every API request needs the token it prints with the
address.  Ctrl-C stops it: the runs still going are stopped, each keeping what it found in the store.
"""
from __future__ import annotations

import argparse
import ipaddress
import secrets
import socket
import sqlite3
import sys

from ..errors import SatilingError

DEFAULT_PORT = 8765
DEFAULT_STORE = "satiling-runs.sqlite"


def register(sub) -> None:
    s = sub.add_parser("serve", help="start the web app (pose, watch and browse puzzles in a browser)",
                       description="Start the web app and print its address; Ctrl-C stops it.")
    s.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; any other needs the printed token)")
    s.add_argument("--store", default=DEFAULT_STORE, metavar="FILE",
                   help=f"the SQLite file of runs and solutions (default ./{DEFAULT_STORE})")
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
    except ImportError as e:
        raise SatilingError(f"the web app needs {e.name}: pip install starlette uvicorn") from None
    if not 0 < args.port < 65536:
        raise SatilingError(f"--port is from 1 to 65535, not {args.port}")
    token = None if is_loopback(args.host) else secrets.token_urlsafe(24)
    sock = listening_socket(args.host, args.port)     # bound before the store is opened or the address printed
    try:
        app = create_app(args.store, token=token)
    except (OSError, sqlite3.Error) as e:
        sock.close()
        raise SatilingError(f"{args.store}: cannot open the store: {getattr(e, 'strerror', None) or e}") from None
    shown = f"[{args.host}]" if ":" in args.host else args.host
    address = f"http://{shown}:{args.port}/"
    print(f"satiling: serving on {address}" + (f"?token={token}" if token else ""), flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=5)
    uvicorn.Server(config).run(sockets=[sock])
    print("satiling: stopped", file=sys.stderr)
    return 0


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
