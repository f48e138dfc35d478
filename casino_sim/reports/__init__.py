"""Tables, statistics and charts from simulation records.

stats (estimators with 95% intervals), load (run folder -> prepared rounds),
tables (report tables), views (records by seat or by place and team, one face for
every player count), cardvalue (card-value tables), charts (figures),
output (CSV/JSON/PNG/SVG files), kinds (one maker per report, MAKERS: a Report of
tables and charts drawn on demand; REPORTS writes them), headlines (report.md's words),
index (make_all, write_all + report.md), webpage (index.html from a report folder),
synthetic (fake records for benchmarks).
Import the submodules you need: importing this package does not load matplotlib.
"""
