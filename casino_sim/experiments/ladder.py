"""The default strength ladder of `casino-sim findings`, weakest first (results/frontier/ rates them in this order).

A module of its own so that the CLI's default needs no pandas or engine import.
"""

LADDER = ("random", "greedy", "expert", "tuned", "endgame", "rollout", "searcher")
