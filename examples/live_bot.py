#!/usr/bin/env python3
"""A complete live-match bot in the standard library only (docs/live.md): join, follow the
match's NDJSON stream, and act when it is our turn. It plays a random legal play, never
doubles, always takes. Start from it and replace choose() with your engine.

    python3 examples/live_bot.py http://127.0.0.1:8000/v1/live/7 nrt_... [client-seed]
"""

import json
import random
import sys
import urllib.error
import urllib.request


def call(url, token, body=None):
    """POST ``body`` (or GET without one); (status, JSON answer). Errors are answers too."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    request = urllib.request.Request(url, data, headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def choose(state):
    """The action for a state in which we must act (see state["expect"])."""
    if "play" in state["expect"]:
        return {"action": "play", "play": random.choice(state["legal_plays"])}
    if "take" in state["expect"]:
        return {"action": "take"}
    return {"action": "roll"}


def states(url, token):
    """Every state the server streams: now, then after each change, until the end."""
    request = urllib.request.Request(url + "/stream", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=60) as stream:
        for line in stream:
            if line.strip():  # blank lines only keep the connection alive
                yield json.loads(line)


def main(url, token, seed=""):
    status, joined = call(url + "/join", token, {"seed": seed})
    if status != 200:
        sys.exit(f"cannot join: {joined.get('detail')}")
    mine, last_ply = set(joined["you"]), -1
    for state in states(url, token):
        while state["status"] == "playing" and state["to_act"] in mine:
            if state["ply"] <= last_ply:
                break  # acted on this one already
            last_ply = state["ply"]
            status, answer = call(url + "/actions", token, {"ply": state["ply"], **choose(state)})
            if status == 409:  # stale: the stream brings the current state
                break
            if status != 200:
                sys.exit(f"refused ({status}): {answer.get('detail')}")
            state = answer
    print(f"{state['status']}: winner {state['winner']}, score {state['score']}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
