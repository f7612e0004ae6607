"""``python -m satiling``: the ``satiling`` command, for an environment whose scripts folder is
not on the PATH."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
