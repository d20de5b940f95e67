"""Temporary: formats still written as module functions, wrapped in the Format interface."""

from __future__ import annotations

from pathlib import Path

from .base import EXACT, HOT_ELO, SWING, WHOCAN, CompileOptions, Format


class LegacyFormat(Format):
    def __init__(self, name, mod):
        self.name = name
        self.mod = mod
        feats = {f for f, fn in ((SWING, "swing"), (WHOCAN, "whocan"), (EXACT, "exact"))
                 if hasattr(mod, fn)}
        if "hot-elo" in getattr(mod, "FORMAT_FEATURES", ()):
            feats.add(HOT_ELO)
        self.features = frozenset(feats)

    def load(self, raw, file):
        return self.mod.load(Path(file), raw)

    def checkpoints(self, scn):
        return self.mod.checkpoints(scn)

    def standings(self, scn, at):
        return self.mod.standings(scn, at)

    def odds(self, scn, model, at):
        return self.mod.odds(scn, model, at)

    def __getattr__(self, name):      # the old module API, for the tests not yet ported
        return getattr(self.mod, name)

    def compile(self, scn, model, opts=None, *args, **kw):
        if not isinstance(opts, CompileOptions):
            return self.mod.compile(scn, model, opts, *args, **kw)
        self.check_options(scn, opts)
        kw = {"fixed": dict(opts.fixed)} if opts.fixed else {}
        return self.mod.compile(scn, model, opts.at, offsets=opts.offsets, **kw)

    def render_standings(self, d):
        return self.mod.render_standings(d)

    def render_odds(self, d):
        return self.mod.render_odds(d)

    def swing(self, scn, model, at, *, sims, seed, offsets=False, round_no=None):
        self.require(SWING, scn)
        return self.mod.swing(scn, model, at, sims=sims, seed=seed, offsets=offsets,
                              round_no=round_no)

    def render_swing(self, d):
        return self.mod.render_swing(d)

    def whocan(self, scn, at, budget=None):
        self.require(WHOCAN, scn)
        return self.mod.whocan(scn, at) if budget is None else self.mod.whocan(scn, at, budget)

    def render_whocan(self, d):
        return self.mod.render_whocan(d)
