"""Who can still finish first or qualify, exactly, with a path: one core (the question ladder,
rows, budget, witness pool, verification) and a backend per format (``formats/*/whocan.py``)."""
