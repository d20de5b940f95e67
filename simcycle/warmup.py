"""Compile the kernels ahead of use (``simcycle warm-up``).

numba compiles a kernel the first time it is called and keeps it in its on-disk cache
(``cache=True``), so the first command after an install pays every compilation its format
needs.  :func:`warm_up` pays it at once: it compiles each format's plan of every shipped
scenario of that format (with and without rating offsets, with "hot" Elo where the format has
it) and runs one replica of each, which compiles the kernel, or loads it when the cache already
holds it.  The kernels' argument types do not depend on the scenario or the options (the
options are flags and arrays inside the argument record), so this is every specialisation a
command of that format uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .errors import ScenarioError
from .scenario import FORMATS


@dataclass(frozen=True)
class Job:
    """One plan to compile and run once."""

    format: str          # [scenario] format
    scenario: str        # the shipped scenario's name
    offsets: bool
    hot: bool

    @property
    def label(self) -> str:
        opts = ", ".join(o for o, on in (("offsets", self.offsets), ("hot Elo", self.hot)) if on)
        return f"{self.format}: {self.scenario}" + (f" ({opts})" if opts else "")


def jobs(format_name: str | None = None) -> list[Job]:
    """The plans to compile: every shipped scenario of ``format_name`` (None: of every
    format), in the registry's order."""
    from .files import read_toml
    from .formats.base import HOT_ELO
    from .resources import SCENARIOS, scenario_names
    from .scenario import get_format

    if format_name is not None and format_name not in FORMATS:
        raise ScenarioError("unknown format; known: " + ", ".join(FORMATS), key="FORMAT",
                            value=format_name)
    by_format: dict[str, list[str]] = {f: [] for f in FORMATS}
    for name in scenario_names():
        raw = read_toml(SCENARIOS / f"{name}.toml", "scenario file")
        f = (raw.get("scenario") or {}).get("format")
        if f in by_format:
            by_format[f].append(name)
    out = []
    for f, names in by_format.items():
        if format_name not in (None, f):
            continue
        hot = HOT_ELO in get_format(f).features
        for name in names:
            out += [Job(f, name, False, False), Job(f, name, True, False)]
            if hot:
                out.append(Job(f, name, False, True))
    return out


def run_job(job: Job) -> None:
    """Compile ``job``'s plan and run one replica (compiling or loading its kernel)."""
    from .formats.base import CompileOptions
    from .model import load_model
    from .resources import SCENARIOS
    from .scenario import load_scenario

    fmt, scn = load_scenario(SCENARIOS / f"{job.scenario}.toml")
    model = load_model(scn.model_file).for_kind(scn.kind)
    plan = fmt.compile(scn, model, CompileOptions(at="start", offsets=job.offsets,
                                                  hot=job.hot))
    plan.run_batch(1, 0, 1)


def warm_up(format_name: str | None = None,
            step: Callable[[int, int, Job], None] | None = None) -> list[Job]:
    """Run every job of :func:`jobs`; ``step(k, n, job)`` is called before job k of n."""
    todo = jobs(format_name)
    for k, job in enumerate(todo):
        if step is not None:
            step(k, len(todo), job)
        run_job(job)
    return todo
