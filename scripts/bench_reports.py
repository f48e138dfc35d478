#!/usr/bin/env python3
"""Time report writing from a synthetic 1,000,000-round run folder (issue 5's <= 10 s target).

python scripts/bench_reports.py [rounds] [folder]
"""

import sys

from casino_sim.reports.synthetic import main

if __name__ == "__main__":
    main([sys.argv[1] if len(sys.argv) > 1 else "1000000", sys.argv[2] if len(sys.argv) > 2 else "/tmp/casino-bench"])
