"""Who can still finish first, or qualify, in a round robin: exact, on points, with a path.

For each player and target (first place; the qualifying places) the answer is one of
  clinched    certain whatever the remaining results, without any tiebreak;
  alive       some results get him there; ``via`` says "outright" (ahead on points) or
              "tiebreak" (only level on points, so the play-off, Sonneborn-Berger, ... decide);
              ``path`` is one such set of results;
  eliminated  no results get him there, not even level on points.
A clinched-looking player who can be caught only level is "alive" with ``at_worst = "tiebreak"``.

Method: a player's best case wins all his games and his worst case loses them all (each
dominates); what the other games can give the rivals is a transportation problem, solved as
a maximum flow (scipy.sparse.csgraph.maximum_flow): source -> game (2 half points) -> its two
players -> sink (each player's allowance).  With q qualifying places we try every set of q-1
rivals allowed past him (best case) or of q rivals asked to pass him (worst case).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

BIG = 10**6


def _flow(n, games, cap):
    """Max flow of the remaining ``games`` [(white, black)] into players with allowance
    cap[j] (half points; BIG = unlimited).  Returns (value, per-game half points of White)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_flow

    g = len(games)
    size = 2 + g + n
    src, sink = 0, 1 + g + n
    rows, cols, caps = [], [], []
    for k, (w, b) in enumerate(games):
        rows += [src, 1 + k, 1 + k]
        cols += [1 + k, 1 + g + w, 1 + g + b]
        caps += [2, 2, 2]
    for j in range(n):
        rows.append(1 + g + j)
        cols.append(sink)
        caps.append(int(max(cap[j], 0)))
    m = csr_matrix((np.array(caps, np.int32), (rows, cols)), shape=(size, size))
    res = maximum_flow(m, src, sink)
    f = res.flow.toarray() if hasattr(res.flow, "toarray") else res.flow
    white = [int(f[1 + k, 1 + g + w]) for k, (w, b) in enumerate(games)]
    return int(res.flow_value), white


def _reach_below(n, pts, games, x, bound_strict, free):
    """Can the games be played so that every rival outside ``free`` ends at most at the bound
    (strictly below x's total when bound_strict)?  Returns White's half points per game or None."""
    cap = [BIG if (j in free or j == x) else pts[x] - pts[j] - (1 if bound_strict else 0)
           for j in range(n)]
    if min(cap) < 0:
        return None
    value, white = _flow(n, games, cap)
    return white if value == 2 * len(games) else None


def _push_past(n, pts, games, x, group, strict):
    """Can every rival in ``group`` finish at or above x (strictly above when strict)?"""
    need = [0] * n
    for j in group:
        need[j] = max(0, pts[x] - pts[j] + (1 if strict else 0))
    cap = [need[j] if j in group else 0 for j in range(n)]
    value, _ = _flow(n, games, cap)
    return value == sum(need)


def analyse(names, pts, remaining, places: int) -> list[dict]:
    """``pts`` half points now; ``remaining`` [(round, white, black)]; ``places`` = how many
    finish "in" (1 for first place)."""
    n = len(names)
    out = []
    for x in range(n):
        own = [(r, w, b) for r, w, b in remaining if x in (w, b)]
        rest = [(r, w, b) for r, w, b in remaining if x not in (w, b)]
        pair = [(w, b) for _, w, b in rest]
        # best case: x wins all his games
        best = list(pts)
        best[x] += 2 * len(own)
        rivals = [j for j in range(n) if j != x]
        status = via = path_white = None
        for strict, label in ((True, "outright"), (False, "tiebreak")):
            for free in combinations(rivals, max(places - 1, 0)):
                white = _reach_below(n, best, pair, x, strict, set(free))
                if white is not None:
                    status, via, path_white = "alive", label, white
                    break
            if status:
                break
        if status is None:
            out.append({"name": names[x], "status": "eliminated", "via": None, "path": None,
                        "at_worst": None})
            continue
        # worst case: x loses all his games
        worst = list(pts)
        for _, w, b in own:
            worst[b if w == x else w] += 2
        strict_pass = any(_push_past(n, worst, pair, x, set(g), True)
                          for g in combinations(rivals, places))
        level_pass = strict_pass or any(_push_past(n, worst, pair, x, set(g), False)
                                        for g in combinations(rivals, places))
        path = [{"round": r, "white": names[w], "black": names[b],
                 "result": "1-0" if w == x else "0-1"} for r, w, b in own]
        for (r, w, b), hw in zip(rest, path_white):
            path.append({"round": r, "white": names[w], "black": names[b],
                         "result": {2: "1-0", 1: "1/2-1/2", 0: "0-1"}[hw]})
        path.sort(key=lambda g: g["round"])
        if not level_pass:
            out.append({"name": names[x], "status": "clinched", "via": "outright", "path": None,
                        "at_worst": None})
        else:
            out.append({"name": names[x], "status": "alive", "via": via, "path": path,
                        "at_worst": "out" if strict_pass else "tiebreak"})
    return out


STATUS_ORDER = ("clinched", "alive", "undetermined", "eliminated", "n/a")


def render_targets(d: dict, header: list, *, qualify_title: str, level: str, path_lines,
                   fmt_points=str) -> str:
    """Text of a whocan answer, shared by every format.

    ``level``: what decides between players level on every compared criterion (e.g. "tiebreaks
    decide"); ``path_lines(row)`` gives the lines that show a live player's path."""
    lines = list(header) + [""]
    for target, rows in d["targets"].items():
        title = "first place" if target == "first" else qualify_title
        lines.append(f"Who can still take {title}:")
        for r in sorted(rows, key=lambda r: STATUS_ORDER.index(r["status"])):
            pts = fmt_points(d["points"][r["name"]])
            head = f"  {r['status']:<12} {r['name']:<26}{pts:>6}"
            if r["status"] == "alive":
                how = "outright" if r["via"] == "outright" else f"only level ({level})"
                worst = (f"; cannot be passed, at worst level ({level})"
                         if r["at_worst"] == "tiebreak" else "")
                lines.append(f"{head}  {how}{worst}")
                lines.extend("               " + x for x in path_lines(r))
            elif r["status"] == "n/a":
                lines.append(f"{head}  qualified elsewhere")
            elif r["status"] == "undetermined":
                lines.append(f"{head}  (time budget of {d.get('budget_seconds')} s reached)")
            else:
                lines.append(head)
        lines.append("")
    return "\n".join(lines).rstrip()
