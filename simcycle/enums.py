"""Every integer code of simcycle, defined once.

The compilers (plain Python), the numba kernels and the plain-Python twins all import their
codes from here; nothing else defines an integer code.  Plain ints with a type alias each
(the way python-chess defines ``PieceType``), so importing this module never imports numpy or
numba and a kernel sees compile-time constants.
"""

from __future__ import annotations

from typing import TypeAlias

# ---- one game -------------------------------------------------------------------------------
GameResult: TypeAlias = int
"""A game's result from White's side (or, in a match, from the named player's side)."""
WHITE_WINS: GameResult = 0
DRAW: GameResult = 1
BLACK_WINS: GameResult = 2
UNPLAYED: GameResult = -1

RESULT_CODES: dict[str, GameResult] = {"1-0": WHITE_WINS, "1/2-1/2": DRAW, "½-½": DRAW,
                                       "0.5-0.5": DRAW, "0-1": BLACK_WINS, "*": UNPLAYED}
RESULT_TEXT: dict[GameResult, str] = {WHITE_WINS: "1-0", DRAW: "1/2-1/2", BLACK_WINS: "0-1",
                                      UNPLAYED: "*"}
# a player's score in one game (1, 0.5, 0; 1 == 1.0) -> the code from his side
SCORE_CODES: dict[float, GameResult] = {1: WHITE_WINS, 0.5: DRAW, 0: BLACK_WINS}

# ---- rating classes and the outcome model's parameter columns --------------------------------
RatingClass: TypeAlias = int
CLASSICAL: RatingClass = 0
RAPID: RatingClass = 1
BLITZ: RatingClass = 2
RATING_CLASSES: tuple[str, ...] = ("classical", "rapid", "blitz")   # names, by code

ModelColumn: TypeAlias = int
"""Columns of ``OutcomeModel.params`` (float64 [n_controls, N_PARAMS]), one row per control."""
P_DRAW0: ModelColumn = 0         # draw rate of equal players at the reference rating
P_EDGE: ModelColumn = 1          # White's edge, Elo
P_SLOPE: ModelColumn = 2         # Elo slope (score under-performance of the stronger player)
P_LEVEL: ModelColumn = 3         # draw propensity per Elo of mean rating (level/100)
P_CLASS: ModelColumn = 4         # rating class (RatingClass code, stored as float)
P_ARMAGEDDON: ModelColumn = 5    # 1.0: a draw goes to Black
P_OFFSET_SD: ModelColumn = 6     # strength-offset SD of the control's rating class, Elo
P_OFFSET_SLOPE: ModelColumn = 7  # the slope used when offsets are on
P_REF: ModelColumn = 8           # reference rating
N_PARAMS = 9

# ---- play-offs for places (a stage of a round robin's tiebreak cascade) ----------------------
PlayoffKind: TypeAlias = int
PO_NONE: PlayoffKind = 0
PO_MATCH: PlayoffKind = 1            # two players, two games, one with each colour
PO_ROUND_ROBIN: PlayoffKind = 2      # single round robin among the tied, colours by lot
PO_SUDDEN_DEATH_KO: PlayoffKind = 3  # knock-out of sudden-death mini-matches
PO_ARMAGEDDON: PlayoffKind = 4       # one decisive game, colours by lot (two players)
PO_LOTS: PlayoffKind = 5             # drawing of lots
PO_PAIRED_KO: PlayoffKind = 6        # four level: lots make two pairs, winners meet

PLAYOFF_KINDS: dict[str, PlayoffKind] = {
    "match": PO_MATCH,
    "round-robin": PO_ROUND_ROBIN,
    "sudden-death-knockout": PO_SUDDEN_DEATH_KO,
    "armageddon": PO_ARMAGEDDON,
    "lots": PO_LOTS,
    "paired-knockout": PO_PAIRED_KO,
}

# ---- steps of a knock-out match (each played only while the match is level) ------------------
MatchStep: TypeAlias = int
STEP_GAMES: MatchStep = 1          # n games, colours alternating, the first player White first
STEP_ARMAGEDDON: MatchStep = 2     # one game, colours by lot, a draw goes to Black
STEP_SUDDEN_DEATH: MatchStep = 3   # games until one is won, first colour by lot then alternating
STEP_LOTS: MatchStep = 4

STEP_KINDS: dict[str, MatchStep] = {
    "games": STEP_GAMES,
    "armageddon": STEP_ARMAGEDDON,
    "sudden-death": STEP_SUDDEN_DEATH,
    "lots": STEP_LOTS,
}
UNKNOWN_TB_STEP = -2   # a recorded match went to tiebreaks; the deciding step is not known

# A sudden-death mini-match longer than this many games is settled by lots (the probability of
# reaching it is below 1e-40 with any shipped model).
MAX_SUDDEN_DEATH = 100

# the two counters every format keeps, named alike so experiments compare them across formats
Q_TIEBREAK = "a qualifying place decided on tiebreaks"  # the last in level on points with the next
Q_LOTS = "a qualifying place decided by lots"           # ... and level on every criterion

# round-robin counters (one flag per replica, summed)
RR_C_PLAYOFF, RR_C_STAGE2, RR_C_STAGE3, RR_C_LOTS, RR_C_Q_TIEBREAK, RR_C_Q_LOTS = range(6)
RR_COUNTER_NAMES = ("play-off for first needed", "play-off reached its second stage",
                    "play-off reached its third stage", "lots decided a place", Q_TIEBREAK,
                    Q_LOTS)

# ---- series criteria (players level on series points) ----------------------------------------
SeriesCriterion: TypeAlias = int
SER_EVENTS_WON: SeriesCriterion = 1
SER_SECOND: SeriesCriterion = 2
SER_CLASSICAL: SeriesCriterion = 3      # classical game points
SER_H2H: SeriesCriterion = 4            # classical points in the matches among the level players
SER_LOTS: SeriesCriterion = 5
SER_CLASSICAL_WINS: SeriesCriterion = 6

SERIES_CRITERIA: dict[str, SeriesCriterion] = {
    "events-won": SER_EVENTS_WON,
    "second-places": SER_SECOND,
    "classical-points": SER_CLASSICAL,
    "head-to-head": SER_H2H,
    "lots": SER_LOTS,
    "classical-wins": SER_CLASSICAL_WINS,
}
# knock-out series: what a plan knows of a match slot (the kernel's ``kstat``)
MatchKnown: TypeAlias = int
KO_OPEN: MatchKnown = 0          # nothing known: simulated
KO_DECIDED: MatchKnown = 1       # decided (winner, deciding step, classical points)
KO_IN_PROGRESS: MatchKnown = 2   # some of its games (or only the colours) known
# one knock-out bracket walk (``kernels/bracket_nb.py``): the columns of its per-match record
# (int64 [size - 1, BR_COLS], matches in playing order), and the step of a match with a bye
(BR_UP, BR_DN, BR_WIN, BR_STEP, BR_CU, BR_CL, BR_WU, BR_WL) = range(8)
BR_COLS = 8
BR_BYE = -3     # BR_STEP of a slot where one side is a bye (nothing played, nothing drawn)

# ---- group series (groups of four into knock-outs) -------------------------------------------
GroupPlaces: TypeAlias = int
PLACES_ELIMINATION: GroupPlaces = 0   # a play-off orders those it knocks out (later out = higher)
PLACES_FIRST_ONLY: GroupPlaces = 1    # the play-off settles first place only; the rest share
ReducedTie: TypeAlias = int
REDUCED_NEXT_STEP: ReducedTie = 0     # a 3-tie cut to 2 goes on with the next step's 2-player form
REDUCED_RESTART: ReducedTie = 1       # ... starts the two-player procedure again
DrawRule: TypeAlias = int
DRAW_FIXED: DrawRule = 0              # groups known (or the snake: fixed by the ratings)
DRAW_LOTS: DrawRule = 1
DRAW_BASKETS: DrawRule = 2
# group-series counters
GS_C_GROUP_PLAYOFF, GS_C_ARMAGEDDON, GS_C_Q_TIEBREAK, GS_C_Q_LOTS = 0, 1, 2, 3
GS_COUNTER_NAMES = ("a group needed a play-off for first", "an Armageddon game was played",
                    Q_TIEBREAK, Q_LOTS)

# ---- tours (season of events, best-N counting) ------------------------------------------------
TourSim: TypeAlias = int
SIM_RR: TourSim = 0
SIM_KO: TourSim = 1
SIM_OPEN: TourSim = 2
# columns of the tour plan's event table (int64 [n_events, N_EV_COLS])
(EV_SYS, EV_CYCLES, EV_CI, EV_ROUNDS, EV_OPP, EV_FS, EV_FL, EV_PS, EV_SS, EV_SL, EV_BS, EV_BL,
 EV_TS, EV_FAST, EV_RR, EV_COLOURS) = range(16)
N_EV_COLS = 16
# columns of the tour plan's what-if places (int64 [k, N_FX_COLS]): the listed player (index
# into the event's field), then the inclusive bounds of his first place (lo) and last place (hi)
FX_I, FX_LO_MIN, FX_LO_MAX, FX_HI_MIN, FX_HI_MAX = range(5)
N_FX_COLS = 5
TOUR_C_TIEBREAK, TOUR_C_LOTS = 0, 1
KO_C_Q_TIEBREAK, KO_C_Q_LOTS = 0, 1          # knock-out series counters
KO_COUNTER_NAMES = (Q_TIEBREAK, Q_LOTS)
TOUR_COUNTER_NAMES = (Q_TIEBREAK, Q_LOTS)   # tiebreaks: fewer counted, then dropping the worst

# ---- Swiss events: what a player's round was, colours, FIDE C.07 tie-break criteria ----------
RoundKind: TypeAlias = int
"""A player's round in a Swiss crosstable (the TRF-16 result letters in brackets)."""
RK_NONE: RoundKind = 0          # not played yet (the round lies ahead)
RK_PLAYED: RoundKind = 1        # a game over the board (1 = 0, W D L)
RK_PAB: RoundKind = 2           # pairing-allocated bye (U): the points the rules give it
RK_FORFEIT_WIN: RoundKind = 3   # (+)
RK_FORFEIT_LOSS: RoundKind = 4  # (-)
RK_HALF_BYE: RoundKind = 5      # requested half-point bye (H)
RK_ZERO_BYE: RoundKind = 6      # requested zero-point bye (Z)
RK_FULL_BYE: RoundKind = 7      # full-point bye (F)
ROUND_KIND_TRF: dict[str, RoundKind] = {"U": RK_PAB, "+": RK_FORFEIT_WIN, "-": RK_FORFEIT_LOSS,
                                        "H": RK_HALF_BYE, "Z": RK_ZERO_BYE, "F": RK_FULL_BYE}
ROUND_KIND_TEXT: dict[RoundKind, str] = {
    RK_NONE: "not played yet", RK_PLAYED: "game", RK_PAB: "pairing-allocated bye",
    RK_FORFEIT_WIN: "forfeit win", RK_FORFEIT_LOSS: "forfeit loss",
    RK_HALF_BYE: "half-point bye", RK_ZERO_BYE: "zero-point bye", RK_FULL_BYE: "full-point bye"}

Colour: TypeAlias = int
COL_NONE: Colour = 0
COL_WHITE: Colour = 1
COL_BLACK: Colour = -1

SwissCriterion: TypeAlias = int
"""FIDE C.07 tie-break criteria (``kernels/criteria_nb.py`` holds one value function each and
the one table of names, C.07 abbreviations and units)."""
TBS_BUCHHOLZ: SwissCriterion = 1           # BH
TBS_BUCHHOLZ_C1: SwissCriterion = 2        # BH-C1
TBS_ARO_C1: SwissCriterion = 3             # ARO-C1, average rating of opponents cut 1
TBS_DIRECT_ENCOUNTER: SwissCriterion = 4   # DE
TBS_SONNEBORN_BERGER: SwissCriterion = 5   # SB
TBS_WINS: SwissCriterion = 6               # WIN (rounds won, played or not)
TBS_WON: SwissCriterion = 7                # WON (games won over the board)
TBS_BLACK_GAMES: SwissCriterion = 8        # BPG (games played with Black)
TBS_PROGRESSIVE: SwissCriterion = 9        # PS
TBS_ARO: SwissCriterion = 10               # ARO
TBS_LOTS: SwissCriterion = 11              # drawing of lots (not a value: the ranker draws)
N_SWISS_CRITERIA = 12
SWISS_CRITERIA: dict[str, SwissCriterion] = {
    "buchholz": TBS_BUCHHOLZ, "buchholz-cut1": TBS_BUCHHOLZ_C1, "aro-cut1": TBS_ARO_C1,
    "direct-encounter": TBS_DIRECT_ENCOUNTER, "sonneborn-berger": TBS_SONNEBORN_BERGER,
    "wins": TBS_WINS, "won": TBS_WON, "black-games": TBS_BLACK_GAMES,
    "progressive": TBS_PROGRESSIVE, "aro": TBS_ARO, "lots": TBS_LOTS}

# ---- round-robin steps (players level on points, after any play-off) ------------------------
# A round robin ranks on the C.07 criteria above (the same codes and value functions as the
# Swiss: ``kernels/criteria_nb.py``), by the names its scenario files use, plus one step that
# is not a value: the play-off for first.
RRCriterion: TypeAlias = int
TB_PLAYOFF: RRCriterion = N_SWISS_CRITERIA   # the play-off settles first place at this step

# how the round-robin stage gives each remaining game its colours (``RoundRobinArgs.colours``;
# by lot: the tour's single round robins, ``formats/tour``)
RRColours: TypeAlias = int
COLOURS_SCHEDULED: RRColours = 0   # as the schedule says (gw White, gb Black)
COLOURS_BY_LOT: RRColours = 1      # a lot just before each game: gw White when u < 0.5, else gb

RR_CRITERIA: dict[str, RRCriterion] = {
    "sonneborn-berger": TBS_SONNEBORN_BERGER,
    "wins": TBS_WINS,
    "head-to-head": TBS_DIRECT_ENCOUNTER,
    "lots": TBS_LOTS,
    "playoff": TB_PLAYOFF,
}

# ---- cycles: the kinds of a seat's chain link (formats/cycle) ----------------------------------
CY_FIXED = 1     # a named player
CY_PLACE = 2     # the player at one place of an event's final order, only
CY_BEST = 3      # the best of an event's order not seated yet (optionally among a set)
CY_LIST = 4      # the highest-rated of a rating list not seated yet
CY_LINKS = {"fixed": CY_FIXED, "place": CY_PLACE, "best": CY_BEST, "list": CY_LIST}
