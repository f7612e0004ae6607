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
