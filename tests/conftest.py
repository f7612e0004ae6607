import pytest

from clirun import run_cli


@pytest.fixture(autouse=True)
def _in_a_folder_of_its_own(tmp_path, monkeypatch):
    """Every test runs in its own empty folder: what a command writes to the working folder by
    default (a maximisation's best board, a stopped count's checkpoint) stays out of the checkout."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def cli():
    return run_cli


#: the longest modules, started first: under ``--dist loadscope`` a module is one worker's, and a
#: long one begun near the end would keep the other worker idle while it ran
#: (the longest first, by the seconds of each module's tests: ``pytest --durations=0`` summed by
#: module)
FIRST = ("tests/web/test_api.py", "tests/web/test_browser_runs.py", "tests/cli/test_readme.py",
         "tests/web/test_browser.py", "tests/web/test_browser_pack_unique.py", "tests/search/test_scale.py",
         "tests/web/test_browser_puzzles.py", "tests/web/test_browser_phone.py", "tests/test_api_properties.py",
         "tests/cli/test_signals.py", "tests/web/test_browser_painter.py", "tests/test_api.py",
         "tests/web/test_browser_workbench.py", "tests/web/test_workbench_api.py")


def pytest_collection_modifyitems(session, config, items):
    rank = {name: k for k, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(FIRST)))     # stable


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker more than this process's cores.  Much of the suite waits (on a
    child's time limit, a server's reply, a browser): on two cores three workers took 166 s where
    two took 182 (docs/decisions/2026-11-28-suite-time.md)."""
    import os
    return len(os.sched_getaffinity(0)) + 1
