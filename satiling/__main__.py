"""``python -m satiling``: the ``satiling`` command, for an environment whose scripts folder is
not on the PATH."""
from .launch import main

if __name__ == "__main__":
    main()
