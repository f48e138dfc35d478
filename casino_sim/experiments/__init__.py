"""Experiments: simulate, tournament, card values, experiment plans."""
