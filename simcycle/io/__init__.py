"""Files about an event that simcycle reads and writes besides its own: PGN and TRF results
(``pgn.py``, ``trf.py``, checked against a schedule in ``results.py``) and results written
back into a scenario file (``write.py``)."""
