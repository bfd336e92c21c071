"""Fixtures of the moesim Python module's tests (ctest python.module): the module from the build
tree, the moesim CLI beside it (to hold the module to the CLI's text and reports) and a scratch
directory."""
import os
import subprocess

import pytest

import moesim  # PYTHONPATH=build/python (ctest sets it)

MOESIM_BIN = os.environ.get("MOESIM_BIN", "moesim")


def cli(*args, cwd=None):
    """Runs the moesim CLI; returns (exit code, stdout, stderr)."""
    r = subprocess.run([MOESIM_BIN, *map(str, args)], cwd=cwd, capture_output=True, text=True,
                       timeout=300)
    return r.returncode, r.stdout, r.stderr


def cli_error(*args, cwd=None):
    """The text of the CLI's one `moesim: error:` line for bad input (exit 2)."""
    code, _, err = cli(*args, cwd=cwd)
    assert code == 2, err
    lines = [l for l in err.splitlines() if l.startswith("moesim: error: ")]
    assert len(lines) == 1, err
    return lines[0][len("moesim: error: "):]


@pytest.fixture
def golden():
    """The process's golden engine on the default machine, handed back after the test."""
    with moesim.Golden("default") as g:
        yield g


@pytest.fixture
def rtl():
    with moesim.Rtl("default") as r:
        yield r
