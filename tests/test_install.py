"""Installs anywhere: the shipped files are found through the package, and with no writable
cache location for compiled kernels the commands still run (one warning line)."""

import subprocess
import sys

from conftest import ROOT

NO_CACHE = """
import numba.core.caching as caching
caching.CacheImpl._locator_classes = []     # as on a read-only install with no writable home
import sys
from simcycle.cli import main
# whocan's enumeration is a small kernel: quick to compile without a cache
sys.argv = ["simcycle", "whocan", "candidates-2022", "--at", "round13", "--json"]
main()
"""


def test_commands_run_without_a_kernel_cache(tmp_path):
    p = subprocess.run([sys.executable, "-c", NO_CACHE], cwd=tmp_path, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stderr.strip().splitlines() == [
        "simcycle: warning: no writable cache directory for compiled kernels (set "
        "NUMBA_CACHE_DIR to one); compiling without a cache"]
    assert '"status": "clinched"' in p.stdout


def test_shipped_files_are_found_from_any_folder(tmp_path):
    # a shipped scenario by name, from a folder that has no scenarios/
    p = subprocess.run([sys.executable, "-m", "simcycle", "standings", "candidates-2022"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "Ian Nepomniachtchi" in p.stdout
    from simcycle import resources
    for sub in ("models", "scenarios", "games"):
        link = resources.SHIPPED / sub
        assert link.resolve().is_dir()
    assert resources.MODELS.resolve() == (ROOT / "models").resolve()
    assert resources.GAMES.is_file()
