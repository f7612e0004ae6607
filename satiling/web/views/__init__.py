"""The web app's endpoints by resource: :mod:`.puzzles` (the gallery, a puzzle's page, posted,
painted and generated instances, the menus), :mod:`.runs` (starting, listing, stopping runs and
their solutions) and :mod:`.events` (a run's event stream).  Each view is a thin layer: read the
request, call the store, the run manager or satiling, answer JSON; errors are raised
(:mod:`..errors`) and answered by the app's one handler."""
