"""Tables, statistics and charts from simulation records.

stats (estimators with 95% intervals), load (run folder -> prepared rounds),
tables (report tables), cardvalue (card-value tables), charts (figures),
output (CSV/JSON/PNG/SVG files), kinds (one maker per report, MAKERS: a Report of
tables and charts drawn on demand; REPORTS writes them), index (make_all, write_all +
report.md), webpage (index.html from a report folder), synthetic (fake records for benchmarks).
Import the submodules you need: importing this package does not load matplotlib.
"""
