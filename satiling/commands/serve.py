"""``satiling serve``: the web app (:mod:`satiling.web`) under uvicorn.

It prints its address and opens nothing (as Jupyter and TensorBoard do).  It listens on 127.0.0.1
unless told otherwise; on any other address every API request needs the token it prints with the
address.  Ctrl-C stops it: the runs still going are stopped, each keeping what it found in the store.
"""
from __future__ import annotations

import argparse
import ipaddress
import secrets
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
    try:
        app = create_app(args.store, token=token)
    except OSError as e:
        raise SatilingError(f"{args.store}: cannot open the store: {e.strerror or e}") from None
    shown = f"[{args.host}]" if ":" in args.host else args.host
    address = f"http://{shown}:{args.port}/"
    print(f"satiling: serving on {address}" + (f"?token={token}" if token else ""), flush=True)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            lifespan="on", timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    try:
        server.run()
    except SystemExit:                    # uvicorn's own exit when it cannot bind
        pass
    if not server.started:
        raise SatilingError(f"cannot listen on {args.host}:{args.port} (in use, or not an address "
                            "of this machine)")
    print("satiling: stopped", file=sys.stderr)
    return 0
