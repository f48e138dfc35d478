"""The analyser: every legal move ranked by its expected point difference to the end of the round."""

from casino_sim.analysis.analyse import Analysis, MoveValue, analyse, analysis_json, analysis_table, print_table

__all__ = ["Analysis", "MoveValue", "analyse", "analysis_json", "analysis_table", "print_table"]
