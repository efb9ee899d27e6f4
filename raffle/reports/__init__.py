"""The regulator's reports and the treasurer's views of the money (RULES L9,
L12, R1, R2), built from the figures stored on each draw (P1: never
recomputed). Builders return plain dataclasses; `render` turns them into PDF
and CSV; `raffle.views.treasury` serves them."""
