"""The ground every layer stands on: cards, rule sets, user errors, feature names, TOML reading, the numba cache.

Nothing here imports another casino_sim package.
"""
