"""cardgen serve: the live preview in the browser, updated on every save."""
from __future__ import annotations

import sys

from cardgen import serve
from cardgen.commands import options
from cardgen.commands.options import say
from cardgen.errors import EXIT_OK


def add_arguments(p) -> None:
    options.game(p, required=False)
    p.add_argument("--port", type=options.whole(0, 65535), default=8000,
                   help="port on 127.0.0.1 (default 8000; 0 picks a free one)")
    p.add_argument("--since", metavar="REF", default="",
                   help="also show the changes since an earlier version (see `cardgen diff`), updated on every save")


def run(args) -> int:
    serve.serve(args.game, args.port, announce=_announce, since=args.since)
    say("stopped")
    return EXIT_OK


def _announce(text: str) -> None:
    say(text)
    sys.stderr.flush()
