"""`casino-sim tune`: made from its declaration (experiments/tune_fields.py TUNE) onto tune's front door
(experiments/tune.py TuneRun); the validation."""

from __future__ import annotations

from casino_sim.cli import options as opts
from casino_sim.cli.declared import command
from casino_sim.cli.options import console
from casino_sim.cli.run_flow import Said
from casino_sim.cli.ui import validation_table
from casino_sim.experiments.tune_fields import TUNE


def _tune(values: dict, given: frozenset) -> None:
    """tune's body: the values by field name (TUNE) into its door (a new run, or the one --resume names),
    executed, its validation shown."""
    # deferred, so that `casino-sim --help` never loads them: pandas
    from casino_sim.experiments.tune import TuneConfig, TuneRun

    resume, backend = values["resume"], values["backend"]
    opts.refuse_resume_with_force(resume, values["force"])
    if resume is not None:
        asked = {k: v for k, v in TuneConfig.of(values).options().items() if k in given}
        door = TuneRun.resume(resume, asked, values["threads"], opts.policy_loader())
    else:
        door = TuneRun.new(values, given, opts.policy_loader(), values["out"], values["force"])
    cut = "interrupted: finished generations are kept; finish with  casino-sim tune --resume {path}"
    result = door.execute(backend.value if backend else None, values["scheduler"], Said(cut))
    console.print(validation_table(door.config.name, result.validation))
    console.print(f"policy: {result.path}\ntables and charts: {door.path / 'report'}", highlight=False)


tune = command(
    TUNE, _tune, "Search a heuristic policy's weights for the best score against a field; write it as a policy file."
)
