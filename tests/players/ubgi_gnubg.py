"""A test-only UBGI engine (draft 0.01): it speaks UBGI on stdin/stdout and asks gnubg's
external player (``python -m tests.players.ubgi_gnubg PORT``) for every position,
answering moves in UBGI's plainest form (``8 5 6 5``: no ``/``, no ``*``)."""

from __future__ import annotations

import sys

from referee.players.gnubg import GnubgExternal


def main() -> int:
    gnubg = GnubgExternal("127.0.0.1", int(sys.argv[1]))
    for line in sys.stdin:
        command = line.strip()
        if command == "ubgi":
            print("id name gnubg-over-ubgi\nid author nardy-referee tests\nid version 0\nreadyok")
        elif command == "quit":
            break
        elif command.startswith("board:"):
            answer = gnubg.ask(command)
            if "/" in answer:
                answer = " ".join(answer.replace("*", "").replace("/", " ").split())
            print(answer)
        elif command:
            print("sorry")
        sys.stdout.flush()
    gnubg.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
