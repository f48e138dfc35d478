"""The Python API for notebooks: runs, positions, tournaments, skills, findings, tuning as pandas objects (docs/api.md).

`import casino_sim as cs` gives these names; each is loaded on first use, so the import stays fast:

- `cs.simulate(deals, policy, vs, ...)` -> Run: `.rounds`, `.summary`, `.report(kind)`, `.chart(kind)`, `.path`
- `cs.open_run(path)` -> the Run (or Tournament) of a folder the commands or the API wrote
- `cs.moves(position)`, `cs.analyse(position, worlds=...)` -> DataFrames of moves
- `cs.tournament(policies, games=...)` -> Tournament: `.ratings`, `.matches`, `.win_rate`, `.margin`, `.chart()`
- `cs.knockout(policy, deals=...)`, `cs.regret(policies, decisions=...)` -> the DataFrame of knockout.csv, regret.csv
- `cs.findings(policies, players=..., deals=...)` -> the DataFrame of findings.csv (every finding along a ladder)
- `cs.tune(start, against, ...)` -> Tuned: `.path` (the policy file written), `.folder`, `.validation`
- `cs.policy(spec)` -> the Policy object of a spec; `cs.register_policy(name, fn)` names a Python function as a
  policy for the calls that follow (both through the API's one policy loader: api/policies.py)

Every one calls the functions the `casino-sim` commands call, so the numbers equal what the commands write for
the same options and seed. Bad arguments raise TypeError (a wrong type) or ValueError (a bad value: the one line
the command would print after `error:`).
"""

from casino_sim.api.ladder import findings as findings
from casino_sim.api.policies import policy as policy
from casino_sim.api.policies import register_policy as register_policy
from casino_sim.api.positions import analyse as analyse
from casino_sim.api.positions import moves as moves
from casino_sim.api.runs import Run as Run
from casino_sim.api.runs import open_run as open_run
from casino_sim.api.runs import simulate as simulate
from casino_sim.api.skills import knockout as knockout
from casino_sim.api.skills import regret as regret
from casino_sim.api.tournaments import Tournament as Tournament
from casino_sim.api.tournaments import tournament as tournament
from casino_sim.api.tuning import tune as tune
from casino_sim.core.api_names import API

# the names `import casino_sim` hands out on first use: core/api_names.py's API is their one list (the imports
# above re-export each with `as`, so the list need not be written twice)
__all__ = list(API)
