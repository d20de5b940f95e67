"""Commentary: what each player needs from the next round, as branches with their odds
(``branches.py``), and what final score is enough (``scores.py``).  See docs/commentary.md."""
