"""A run's own process: it calls :mod:`satiling.run` (the same run code as the command line) and
sends what happens through a queue to the server, which stores it and hands it to the pages.

What it sends (each a dict with a ``type``):

* ``improve`` with the board's JSON line: every better board of a maximisation, board and score
  together, never throttled (the server stores the two in one step, so no kill leaves a score
  without its board);
* ``solutions``: every solution of an enumeration, in batches;
* ``started`` when the task begins: the run's clock starts then, as its time limit does;
* ``progress`` at least every :data:`TICK` seconds from a clock of its own (the seconds always
  current, even while a search finds nothing), more often while solutions come, at most
  :data:`EVENTS_PER_SECOND` a second;
* ``board`` (a maximisation's best board drawn), ``solution`` (the latest found, drawn) and
  ``partial`` (the board the search stands on, drawn): pictures, at most a few a second each; a
  picture held back by that pace is sent at the next tick, so the last one is never lost;
* last, ``end`` or ``failed``.

Stop is SIGINT: the run code answers it with what was found (``Stop.INTERRUPTED``), as it
answers Ctrl-C in a terminal.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

#: at most this many progress events a second from one run (while solutions come)
EVENTS_PER_SECOND = 5
#: seconds between two looks of the run's clock: a progress event at least this often
TICK = 0.4
#: seconds between two looks of the clock thread (for what is due)
LOOK = 0.1
#: at most this many pictures of one kind a second
PICTURES_PER_SECOND = 4
#: solutions are sent in batches of at most this many
BATCH = 500


@dataclass(frozen=True)
class Spec:
    """One run as its process needs it (picklable: the puzzle is rebuilt from ``source``)."""

    puzzle: str                 # the name the user gave (bundled name or instance id)
    source: str                 # what catalog.load reads: a bundled name or an instance file path
    task: str
    engine: str = "auto"
    time_limit: float | None = None
    raw: bool = False
    symmetry: str | None = None
    dask: str | None = None     # a maximisation's Dask scheduler (``satiling serve --dask``)
    options: dict[str, Any] = field(default_factory=dict)    # the family's model options, checked


def start(target: Callable[..., None], args: tuple, name: str) -> Any:
    """The one way the web app starts a process of its own (a run, the facts of puzzles): a fresh
    interpreter (spawn: nothing of the server's threads or store is inherited) that dies with the
    server however the server ends, as every process satiling starts does.  Not daemonic: a run
    may start processes of its own (maximise's portfolio); the server stops each itself."""
    from ..children import this_process
    process = multiprocessing.get_context("spawn").Process(
        target=_begin, args=(this_process(), target, args), daemon=False, name=name)
    # the process starts with Ctrl-C and SIGTERM held (the mask outlives the exec) until it can
    # answer them: one that landed while the interpreter started was a traceback
    held = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    try:
        process.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return process


HELD = {signal.SIGINT, signal.SIGTERM}


def _begin(parent: Any, target: Callable[..., None], args: tuple) -> None:
    from ..children import die_with_parent
    die_with_parent(parent)
    os.setpgrp()      # the terminal's Ctrl-C stops the server, which stops its processes
    target(*args)     # which lets the signals held at its start in (:func:`ready`) once it can


def ready() -> None:
    """Let in the signals a process of :func:`start` was started with held (one that came since
    arrives now)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)


def queue() -> Any:
    """A queue such a process sends on."""
    return multiprocessing.get_context("spawn").Queue()


# -- the run -------------------------------------------------------------------------------------------
def run_main(spec: Spec, out: Any) -> None:
    """Run ``spec`` and send its events to ``out``; the last message is ``{"type": "end", ...}``
    or ``{"type": "failed", "error": ...}``."""
    sender = Sender(out, spec)
    try:
        ready()
        sender.end(_perform(spec, sender))
    except KeyboardInterrupt:          # stopped before the search began (loading the puzzle)
        sender.end(None)
    except BaseException as e:         # noqa: BLE001 -- any error ends the run as "failed"
        from ..errors import SatilingError
        sender.fail(str(e) if isinstance(e, SatilingError) else f"{type(e).__name__}: {e}")


def _perform(spec: Spec, sender: "Sender") -> Any:
    from .. import catalog
    from ..run import Events, Request, perform
    puzzle = catalog.load(spec.source)
    sender.puzzle = puzzle
    if spec.task in OWN_TASKS:
        sender.begin()
        return OWN_TASKS[spec.task](puzzle, spec, sender)
    req = Request(puzzle, spec.task, engine=spec.engine, time_limit=spec.time_limit, raw=spec.raw,
                  symmetry=spec.symmetry, source=spec.source, dask=spec.dask, options=spec.options)
    events = Events(found=sender.on_found, work=sender.on_work, solution=sender.on_solution,
                    improve=sender.on_improve, partial=sender.on_partial, note=sender.on_note,
                    engine=sender.on_engine)
    sender.begin()
    return perform(req, events)


@dataclass
class Told:
    """The answer of a task the run code does not know (``pack``, ``unique``): how it stopped
    (:class:`satiling.run.Stop`), the engine that ran, what it found and says."""

    stop: Any
    engine: str
    found: int
    note: str


def _pack(puzzle: Any, spec: Spec, sender: "Sender") -> Told:
    """``satiling pack``: the most pieces on the board, each better packing's size as it comes,
    the best drawn at the end; Stop keeps the best so far (CP-SAT is stopped by a call)."""
    from ..apps.packing import Packer, hole_components
    from ..limits import Deadline
    from ..run import Stop
    from ..signals import in_thread, within
    deadline = Deadline.after(spec.time_limit)
    built, packer = within(spec.time_limit, lambda: Packer(puzzle, "pieces"))
    if not built:
        return Told(Stop.TIME, "cpsat", 0, "the time limit ran out while the model was built")
    left = deadline.left(floor=0.01)
    packing, signum = in_thread(lambda: packer.run(left, 1, (), on_improve=lambda n, _: sender.on_best(n)),
                                packer.stop)
    stop = (Stop.INTERRUPTED if signum == signal.SIGINT else Stop.TERMINATED) if signum else (
        Stop.DONE if packing.status == "OPTIMAL" else Stop.TIME)
    if packing.status == "UNKNOWN":
        return Told(stop, "cpsat", 0, "no packing found")
    sender.on_solution(packing.placements)
    parts = [len(p) for p in hole_components(packer.puzzle, packing.hole)]
    holes = f"; hole parts {parts}" if parts else ""
    return Told(stop, "cpsat", packing.pieces, f"{packing.summary()}{holes}")


def _unique(puzzle: Any, spec: Spec, sender: "Sender") -> Told:
    """``satiling iqlink unique``: a solution, then a second one (the first blocked): the
    solution and, where there is one, the second, kept as the run's solutions 0 and 1."""
    from ..apps.iqlink_generate import check_unique
    from ..run import Stop
    result = check_unique(puzzle, link_rule=spec.options.get("link_rule") or "lazy")
    if result.solution is None:
        return Told(Stop.DONE, "sat", 0, "no solution")
    sender.on_solution(result.solution)
    if result.second is None:
        return Told(Stop.DONE, "sat", 1, f"unique: no second solution (proved in {result.seconds:.2f} CPU-s)")
    sender.on_solution(result.second)
    return Told(Stop.DONE, "sat", 2, f"not unique: a second solution (found in {result.seconds:.2f} CPU-s)")


def _forced(puzzle: Any, spec: Spec, sender: "Sender") -> Told:
    """``satiling forced``: the placements every solution holds, kept and drawn as the run's
    solution 0 (``found`` counts them all, the pins too); the note says, as the CLI does, what
    is forced beyond the pins, and after a stop how many are not settled."""
    from ..run.forced import METHOD_NAMES, forced, forced_words, no_solution_words
    answer = forced(puzzle, method=spec.engine, time_limit=spec.time_limit, options=spec.options)
    # the run names the method that ran (auto's choice), as the engine menu names it
    ran = {words: m for m, words in METHOD_NAMES.items()}.get(answer.method, spec.engine)
    if answer.exists is False:
        return Told(answer.stop, ran, 0, no_solution_words(puzzle, answer.ruled_out))
    if answer.forced:
        sender.on_solution(answer.forced)
    if answer.complete:
        return Told(answer.stop, ran, len(answer.forced),
                    f"{forced_words(answer)}, proved by {answer.method}")
    return Told(answer.stop, ran, len(answer.forced), f"partial: {forced_words(answer)}; "
                f"{len(answer.open)} placements not settled yet ({answer.method})")


def _hint(puzzle: Any, spec: Spec, sender: "Sender") -> Told:
    """``satiling hint``: one placement of a verified solution, not a pin; kept and drawn with
    the pins as the run's solution 0, and named in the note."""
    from ..run import Stop
    from ..run.forced import hint, no_solution_words
    answer = hint(puzzle, time_limit=spec.time_limit, options=spec.options)
    if answer.solution is None:
        if answer.stop != Stop.DONE:
            return Told(answer.stop, "auto", 0, "no hint yet")
        return Told(answer.stop, "auto", 0, no_solution_words(puzzle, answer.ruled_out))
    if answer.placement is None:
        return Told(answer.stop, "auto", 0, "nothing left to reveal: the pinned pieces are a solution")
    sender.on_solution([*puzzle.pins(), answer.placement])
    return Told(answer.stop, "auto", 1, f"A hint: {_where(answer.placement)}. (seed {answer.seed})")


def _where(placement: Any) -> str:
    """A placement in words a user finds it by on the picture, which draws no coordinates: a
    polyform's piece and an edge-matching tile on its square (named as the instance files name
    it, I8), each outlined in orange there (:func:`.pictures.kept_svg`); an IQ-Link piece and
    its middle peg, on an orange halo there.  (The cells are in the run's JSON.)"""
    if hasattr(placement, "cells"):
        return f"{placement.piece}, outlined in orange on the board"
    if hasattr(placement, "peg"):
        return (f"piece {placement.piece} with its middle on peg {placement.peg} ({placement}), "
                "marked in orange on the board")
    turns = placement.rotation or 0
    turned = f", turned {turns} quarter turn{'s' * (turns > 1)} clockwise" if turns else ""
    return (f"tile {placement.piece} on square {placement.square} (row {placement.square.rstrip('0123456789')}, "
            f"column {placement.col + 1}){turned}, outlined in orange on the board")


#: the tasks a run does here rather than in :func:`satiling.run.perform`
OWN_TASKS: dict[str, Callable[[Any, Spec, "Sender"], Told]] = {
    "pack": _pack, "unique": _unique, "forced": _forced, "hint": _hint}


class Sender:
    """The run's side: counts, throttles, draws and batches what it sends.  The search calls the
    ``on_*`` hooks; a clock thread calls :meth:`tick`; one lock keeps the two apart."""

    def __init__(self, out: Any, spec: Spec) -> None:
        self.out, self.spec, self.puzzle = out, spec, None
        self.lock = threading.Lock()
        self.begun: float | None = None     # when the task began (perf_counter)
        self.found = 0
        self.sent = 0                       # solutions sent (the next one's index)
        self.batch: list[str] = []
        self.fraction: float | None = None
        self.timeleft: Any = None
        self.last_progress = 0.0
        self.pictures: dict[str, Callable[[], dict[str, Any]]] = {}     # kind -> its latest, to draw
        self.drawn: dict[str, float] = {}
        self.stopped = threading.Event()
        self.notes: list[str] = []          # a maximisation's lines for the user (where it ran)

    def begin(self) -> None:
        """The task begins: the run's clock starts here, as its time limit does (``started``
        tells the server when, so the run's record, its events and its end read one clock), and
        the clock thread with it."""
        self.begun = time.perf_counter()
        self.out.put({"type": "started", "at": time.time()})
        self.ticking()

    def seconds(self, now: float | None = None) -> float:
        """The run's clock: since its task began (0 before)."""
        return 0.0 if self.begun is None else (now or time.perf_counter()) - self.begun

    # -- the search's hooks ------------------------------------------------------------------------
    def on_found(self, n: int) -> None:
        with self.lock:
            self.found += n
            self._progress(force=False)

    def on_best(self, n: int) -> None:
        """A better packing holds ``n`` pieces: the run's figure is that, not a sum."""
        with self.lock:
            self.found = n
            self._progress(force=False)

    def on_work(self, done: float, finished: float) -> None:
        from ..search.timeleft import TimeLeft
        with self.lock:
            if self.timeleft is None:
                self.timeleft = TimeLeft(self.begun or time.perf_counter())
            self.fraction = done
            self.timeleft.update(time.perf_counter(), done, finished)
            self._progress(force=False)

    def on_solution(self, placements: list[Any]) -> None:
        from ..search.runfiles import solution_json
        with self.lock:
            index = self.sent + len(self.batch)
            self.batch.append(solution_json(self.puzzle, placements))
            held = list(placements)
            self._picture("solution", lambda: {"index": index, "svg": self._svg(held, index)})
            if len(self.batch) >= BATCH:
                self._flush()

    def on_improve(self, imp: Any) -> None:
        from ..search.runfiles import solution_json
        board = solution_json(self.puzzle, imp.solution)
        with self.lock:
            self.found = 1                  # a board, as the run's record counts it
            self.out.put({"type": "improve", "score": imp.score, "joins": imp.joins,
                          "seconds": round(imp.seconds, 3), "board": board})
            self._picture("board", lambda: {"svg": self._svg(imp.solution, 0)})

    def on_note(self, text: str) -> None:
        with self.lock:
            self.notes.append(text)

    def on_engine(self, name: str) -> None:
        """The engine the run chose (what ``auto`` became), named while the run goes."""
        with self.lock:
            self.out.put({"type": "engine", "engine": name})

    def on_partial(self, placements: list[Any]) -> None:
        held = list(placements)
        with self.lock:
            self._picture("partial", lambda: {"svg": self._svg(held)})

    # -- the clock -----------------------------------------------------------------------------------
    def ticking(self) -> None:
        """Start the clock thread: a progress event every :data:`TICK` seconds, and the pictures
        the pace held back."""
        def loop() -> None:
            while not self.stopped.wait(LOOK):
                self.tick()
        threading.Thread(target=loop, daemon=True, name="satiling-run-clock").start()

    def tick(self) -> None:
        """Send what is due: the pictures the pace allows (drawn here, outside the lock, so the
        search is never kept waiting on a drawing) and the progress."""
        with self.lock:
            if self.stopped.is_set():
                return
            due = self._due()
            if time.perf_counter() - self.last_progress >= TICK:
                self._progress(force=True)
        for kind, draw in due:
            self.out.put({"type": kind, **draw()})

    # -- sending --------------------------------------------------------------------------------------
    def _picture(self, kind: str, draw: Callable[[], dict[str, Any]]) -> None:
        """Keep ``draw`` as the latest picture of ``kind``: the clock thread draws and sends it
        as the pace allows."""
        self.pictures[kind] = draw

    def _due(self, every: bool = False) -> list[tuple[str, Callable[[], dict[str, Any]]]]:
        """The pictures to send now (``every``: whatever the pace), taken from those kept; the
        solutions found so far are sent first (a solution's picture never comes before it)."""
        now, due = time.perf_counter(), []
        for kind in list(self.pictures):
            if every or now - self.drawn.get(kind, -1.0) >= 1.0 / PICTURES_PER_SECOND:
                self.drawn[kind] = now
                due.append((kind, self.pictures.pop(kind)))
        if due:
            self._flush()
        return due

    def _svg(self, placements: list[Any], index: int | None = None) -> str:
        """The picture of the board the search stands on, or of what the run keeps as ``index``
        (a maximisation's best board: its 0)."""
        if index is None:
            from ..render import to_svg
            return to_svg(self.puzzle, placements)
        from .pictures import kept_svg
        return kept_svg(self.puzzle, self.spec.task, placements, index)

    def _flush(self) -> None:
        if self.batch:
            self.out.put({"type": "solutions", "first": self.sent, "lines": self.batch})
            self.sent += len(self.batch)
            self.batch = []

    def _progress(self, force: bool) -> None:
        now = time.perf_counter()
        if not force and now - self.last_progress < 1.0 / EVENTS_PER_SECOND:
            return
        self.last_progress = now
        self._flush()
        seconds = self.seconds(now)
        eta = self.timeleft.seconds if self.timeleft is not None else None
        limit = self.spec.time_limit
        self.out.put({"type": "progress", "found": self.found, "fraction": self.fraction,
                      "limit_fraction": None if not limit else round(min(1.0, seconds / limit), 4),
                      "rate": round(self.found / seconds, 2) if seconds > 0 else None,
                      "eta": None if eta is None else round(eta, 1), "seconds": round(seconds, 3),
                      "at": time.time()})       # the wall clock when sent: how late a page hears it

    # -- the end ----------------------------------------------------------------------------------------
    def end(self, answer: Any) -> None:
        """The run's answer (None: stopped before its search began) and the last pictures."""
        task = self.spec.task
        end: dict[str, Any] = {"type": "end", "stop": "interrupted", "found": self.found,
                               "score": None, "joins": None, "note": None, "board": None}
        if isinstance(answer, Told):
            end.update(stop=answer.stop.value, engine=answer.engine, found=answer.found, note=answer.note)
        elif answer is not None:
            end.update(stop=answer.stop.value, engine=answer.engine)
            if task == "solve":
                end.update(found=int(answer.solution is not None), note=answer.how)
                if answer.solution is not None:
                    self.on_solution(answer.solution)
            elif task in ("count", "enumerate"):
                end.update(found=answer.total, note=answer.ruled_out)
            else:
                end.update(found=int(bool(answer.solution)), joins=answer.joins,
                           note="; ".join(self.notes) or None)
                if answer.solution:                   # no board, no score (not a score of 0)
                    end["score"] = answer.score
                    from ..search.runfiles import solution_json
                    end["board"] = solution_json(self.puzzle, answer.solution)
                    self._picture("board", lambda: {"svg": self._svg(answer.solution, 0)})
        self._last(end)

    def fail(self, message: str) -> None:
        self._last({"type": "failed", "error": message})

    def _last(self, message: dict[str, Any]) -> None:
        self.stopped.set()
        with self.lock:
            self._flush()
            if self.puzzle is not None:
                for kind, draw in self._due(every=True):
                    self.out.put({"type": kind, **draw()})
            self._progress(force=True)
            self.out.put(message)
