"""The value estimate's weights (kernels/value.py): written by scripts/fit_value.py, not by hand."""

from __future__ import annotations

import numpy as np

# VALUE_COEF[b, j]: feature j's weight at the end of batch b + 1; 1000000 strict rounds of tuned against
# itself, seed 4601. The features:
#  0: most cards, even odds
#  1: most spades, even odds
#  2: cards taken, less the other's
#  3: the dealer's edge (1 if the mover deals, else -1)
#  4: sure points of the loose cards, to the first mover
#  5: sure points in the stock, to the dealer
#  6: no loose card, to the first mover
#  7: one loose card, to the first mover
#  8: most cards, even odds, with the loose cards the first mover's
#  9: points at risk of the loose cards, to the first mover
# 10: cards at risk of the loose cards, to the first mover
# 11: sweep open on the loose cards, to the first mover
VALUE_COEF = np.array(
    [
        [0.1821, 0.9193, 0.1515, 0.2752, 0.0976, -0.0344, -0.1485, -0.2662, 0.0762, 0.4787, 0.1227, 1.6604],
        [0.3927, 0.9391, 0.1170, 0.3409, 0.0691, -0.0208, -0.3098, -0.2741, -0.0180, 0.5326, 0.1354, 1.6805],
        [0.5039, 0.9578, 0.1078, 0.3930, 0.0176, 0.0063, -0.6385, -0.2702, -0.0897, 0.5981, 0.1378, 1.2425],
        [0.6060, 0.9677, 0.1058, 0.5109, -0.0856, 0.0492, -0.5468, -0.3008, -0.1777, 0.6657, 0.1723, 1.0321],
    ]
)
