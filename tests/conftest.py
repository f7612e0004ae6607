import pytest

from clirun import run_cli


@pytest.fixture
def cli():
    return run_cli
