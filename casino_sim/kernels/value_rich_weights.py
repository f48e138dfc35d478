"""The value estimate's weights (kernels/value_rich.py): written by scripts/fit_value.py, not by hand."""

from __future__ import annotations

import numpy as np

# RICH_COEF[b, j]: feature j's weight at the end of batch b + 1; 400000 strict rounds of endgame against
# itself, seed 4602. The features:
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
# 12: most cards, even odds, -4 cards
# 13: most cards, even odds, -2 cards
# 14: most cards, even odds, +2 cards
# 15: most cards, even odds, +4 cards
# 16: most cards, even odds, -2 cards, both players' chances to the dealer
# 17: most cards, even odds, +0 cards, both players' chances to the dealer
# 18: most cards, even odds, +2 cards, both players' chances to the dealer
# 19: most spades, even odds, -2 spades
# 20: most spades, even odds, -1 spades
# 21: most spades, even odds, +1 spades
# 22: most spades, even odds, +2 spades
# 23: most spades, even odds, -1 spades, both players' chances to the dealer
# 24: most spades, even odds, +0 spades, both players' chances to the dealer
# 25: most spades, even odds, +1 spades, both players' chances to the dealer
# 26: most spades, even odds, with the loose spades the first mover's
# 27: loose cards, to the first mover
# 28: loose spades, to the first mover
# 29: loose figures, to the first mover
# 30: the loose number cards' values, in tens, to the first mover
# 31: aces in the stock, to the dealer
RICH_COEF = np.array(
    [
        [0.1082, 0.0464, 0.0347, 0.1167, 0.0743, 0.0139, -0.2253, -0.1436, 0.1500, 0.4991, 0.0412, 1.3950,
         0.5876, 0.3739, 0.3391, 0.4444, -0.5433, 0.0625, 0.1783, 0.4742, 0.1136, 0.1136, 0.4742, 0.3935,
         0.1167, 0.0490, 0.1599, 0.2265, 0.0241, -0.2437, -0.2917, -0.0750],
        [0.2049, 0.2436, 0.0301, 0.1472, 0.0102, 0.0365, -0.1123, -0.3200, 0.0413, 0.5629, 0.0362, 1.7265,
         0.1312, 0.5328, 0.5932, 0.3976, -0.3388, 0.1165, 0.1836, 0.1079, 0.1771, 0.1771, 0.1079, -0.0105,
         0.1472, 0.1488, 0.3097, 0.2312, -0.0178, -0.2264, -0.2447, -0.0920],
        [0.1858, 0.4060, 0.0059, 0.1891, -0.1065, 0.0544, -0.1817, -0.3397, 0.0553, 0.7393, 0.0181, 1.5306,
         0.1627, 0.6975, 0.6239, 0.6308, -0.5991, 0.0956, 0.3012, -0.0764, 0.2231, 0.2231, -0.0764, -0.0266,
         0.1891, 0.1933, 0.2591, 0.2253, -0.0041, -0.2362, -0.2383, -0.0854],
        [0.2547, 0.5220, 0.0046, 0.2471, -0.2105, 0.0883, -0.2293, -0.2233, 0.0295, 0.7989, 0.0446, 1.3820,
         0.1927, 0.6379, 0.7287, 0.4656, -0.8162, 0.1816, 0.3535, -0.0751, 0.2074, 0.2074, -0.0751, -0.0502,
         0.2471, 0.2546, 0.1713, 0.2243, 0.0204, -0.2244, -0.2259, -0.0597],
    ]
)  # fmt: skip
