"""Why a row is clinched or eliminated, in words: the series formats' sentences.

Two complete result sets per player carry the numbers a reader can check by hand: the player
winning everything left (their most points) and losing everything left (their fewest), each
replayed through the format's standings code by the backend.  When those numbers alone prove
the status ("16 points at most, and Alexander Grischuk is sure of 20") the sentence says so;
otherwise the proof is the backend's program over every result set, and the sentence says
that instead, with the player's own bound.
"""

from __future__ import annotations

from typing import Callable, Sequence


def points_words(x: float) -> str:
    """Series points in words: 20, 7½, 7.25."""
    if float(x).is_integer():
        return str(int(x))
    if (2 * x).is_integer():
        return (str(int(x)) if x >= 1 else "") + "½"
    return f"{round(x, 4):g}"


def what(target: str, q: int) -> str:
    return "first place" if target == "first" else (
        "a qualifying place" if q > 1 else "the qualifying place")


def _names(xs: list[str]) -> str:
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


def bound_words(status: str, target: str, q: int, x: int, rivals: Sequence[int] | None,
                best: Callable[[int], float], worst: Callable[[int], float],
                names: Sequence[str], pts: Callable[[float], str], left: Callable[[int], bool],
                criteria: str) -> list[str]:
    """The sentence of a clinched or eliminated row.

    best, worst  a player's series points winning / losing everything left (replayed)
    pts          points in words ("20", "7½")
    left         whether the player has anything left to play
    criteria     the deterministic comparison in words ("points and the series tie-breaks")
    """
    goal = what(target, q)

    def many(v: float) -> str:
        return f"{pts(v)} point{'' if v == 1 else 's'}"

    if status == "clinched" and (rivals is None or len(rivals) < q):
        return [f"has clinched {goal}: fewer rivals than places"]
    if status == "eliminated":
        b = best(x)
        how = "winning everything left" if left(x) else "nothing left to play"
        head = f"can no longer reach {goal}: {many(b)} at most ({how})"
        sure = sorted((j for j in rivals if worst(j) > b), key=lambda j: (-worst(j), j))
        if len(sure) >= q:
            return [head + ", and " + ", ".join(f"{names[j]} is sure of {pts(worst(j))}"
                                                for j in sure[:q])]
        some = "some rival finishes" if q == 1 else f"at least {q} rivals finish"
        return [head + f"; in every set of the remaining results {some} ahead of them on "
                f"{criteria} (proved over every result set by a mixed-integer program)"]
    w = worst(x)
    how = "losing everything left" if left(x) else "nothing left to play"
    head = f"has clinched {goal}: {many(w)} at least ({how})"
    can = sorted((j for j in rivals if best(j) >= w), key=lambda j: (-best(j), j))
    if len(can) < q:
        if not can:
            return [head + ", and no rival can reach that many"]
        return [head + f", and only {len(can)} rival{'s' if len(can) > 1 else ''} can reach "
                "that many: " + _names([f"{names[j]} ({pts(best(j))} at most)" for j in can])]
    some = "no rival finishes" if q == 1 else f"fewer than {q} rivals finish"
    return [head + f"; in every set of the remaining results {some} level with or ahead of "
            f"them on {criteria} (proved over every result set by a mixed-integer program)"]
