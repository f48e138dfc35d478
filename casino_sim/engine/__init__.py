"""The numba engine: the rules of RULES.md as bitmask kernels (api.py holds the Python entry points).

Modules, one job each: bits (card constants, ctz/popcount), tables (the split
table), state (layout, deal), movegen (legal moves, canonical order), apply,
score, rng (splitmix64), rounds (whole-round kernels), batch (parallel
chunks of rounds and games), features/choose/rows (policies and per-round
records), decide (one rollout decision), api (wrappers in the reference's
types). Stale caches are guarded by casino_sim.core.numba_cache.
"""
