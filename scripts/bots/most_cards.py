"""A casino-sim bot (README, Bots in any language): the capture taking the most, else the first move."""

import json
import sys

for line in sys.stdin:  # one request a line; stdin closes when the run ends
    moves = json.loads(line)["moves"]  # the position as this player sees it is under "position"
    taken = [len(m["loose"]) + len(m["builds"]) if m["kind"] == "capture" else -1 for m in moves]
    print(taken.index(max(taken)), flush=True)  # the 0-based index of the move to play
