"""The Python API's names (casino_sim/api): `import casino_sim` hands them out on first use and the api package
re-exports them, both from this one list, so neither imports the other to learn it."""

API = (
    "Run",
    "Tournament",
    "analyse",
    "findings",
    "knockout",
    "moves",
    "open_run",
    "policy",
    "register_policy",
    "regret",
    "simulate",
    "tournament",
    "tune",
)
