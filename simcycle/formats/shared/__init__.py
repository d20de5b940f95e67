"""Pieces every format shares: the scenario head and players, schedules, brackets, match
steps, tiebreak lists, prizes and the swing scaffold (plain Python)."""
