"""Integer codes shared by the compiler (plain Python) and the kernels (numba).

Plain ints so that importing this module never imports numba.
"""

# One game, from White's side.
WHITE_WINS, DRAW, BLACK_WINS = 0, 1, 2
UNPLAYED = -1

# Play-off kinds for places settled over the board (a stage of a tiebreak cascade).
PO_NONE = 0
PO_MATCH = 1            # two players, two games, one with each colour
PO_ROUND_ROBIN = 2      # single round robin among the tied, colours by lot
PO_SUDDEN_DEATH_KO = 3  # knock-out of sudden-death mini-matches (first to win a game)
PO_ARMAGEDDON = 4       # one decisive game, colours by lot (two players)
PO_LOTS = 5             # drawing of lots
PO_PAIRED_KO = 6        # four level: lots make two pairs, winners meet (group-series format)

PLAYOFF_KINDS = {
    "match": PO_MATCH,
    "round-robin": PO_ROUND_ROBIN,
    "sudden-death-knockout": PO_SUDDEN_DEATH_KO,
    "armageddon": PO_ARMAGEDDON,
    "lots": PO_LOTS,
    "paired-knockout": PO_PAIRED_KO,
}

# Steps of a knock-out match, each played only while the match is level.
STEP_GAMES = 1          # n games, colours alternating, the listed first player White first
STEP_ARMAGEDDON = 2     # one game, colours by lot, a draw goes to Black
STEP_SUDDEN_DEATH = 3   # games until one is won, first colour by lot then alternating
STEP_LOTS = 4

STEP_KINDS = {
    "games": STEP_GAMES,
    "armageddon": STEP_ARMAGEDDON,
    "sudden-death": STEP_SUDDEN_DEATH,
    "lots": STEP_LOTS,
}

# Criteria ordering players level on points in a round robin (after any play-off).
TB_SONNEBORN_BERGER = 1
TB_WINS = 2
TB_HEAD_TO_HEAD = 3
TB_LOTS = 4

RR_CRITERIA = {
    "sonneborn-berger": TB_SONNEBORN_BERGER,
    "wins": TB_WINS,
    "head-to-head": TB_HEAD_TO_HEAD,
    "lots": TB_LOTS,
}

# A sudden-death mini-match longer than this many games is settled by lots (the
# probability of reaching it is below 1e-40 with any shipped model).
MAX_SUDDEN_DEATH = 100
