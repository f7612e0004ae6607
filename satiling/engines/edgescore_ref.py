"""The scoring search of ``_edgescore.c`` in plain Python, node for node: the reference the tests
hold the compiled search to.  It reads the same :class:`~satiling.engines.edgescore.Layout`, so
the two try the same candidates in the same order and report the same boards after the same
number of nodes.  Far too slow for real boards.
"""
from __future__ import annotations

from .edgescore import Cand, Layout, OnBoard, Outcome


class _Stop(Exception):
    def __init__(self, status: str) -> None:
        self.status = status


class _Search:
    def __init__(self, lay: Layout, held: list[int], cap: int, on_board: OnBoard,
                 node_limit: int, patience: int, tile: bool = False, need: list[int] | None = None,
                 sub_depth: int = 0, sub_limit: int = 0, hist: list[int] | None = None) -> None:
        self.hist = hist                # the rows of edgescore.HIST_ROWS, one after the other
        self.lay, self.held, self.cap, self.on_board = lay, held, cap, on_board
        self.node_limit, self.patience, self.nodes, self.last = node_limit, patience, 0, 0
        self.board: list[Cand] = [lay.cands[0]] * len(lay.order)
        self.used = [False] * lay.npieces
        self.tile, self.need = tile, need
        self.psum = 0                   # priority sides placed so far
        self.sub_depth, self.sub_limit, self.sub_start = sub_depth, sub_limit, 0
        self.abandon = False            # unwinding to sub_depth: the subtree's budget ran out
        # tileability: per colour the open half-edges of placed squares and the sides in the pool
        self.open = [0] * lay.colours
        self.pool = [0] * lay.colours
        seen = set()
        for c in lay.cands:
            if c[0] not in seen:
                seen.add(c[0])
                for x in c[2:]:
                    if x:
                        self.pool[x] += 1

    def short(self, d: int, prio: int) -> bool:
        """True if a candidate with ``prio`` priority sides leaves depth ``d`` below its need."""
        return self.need is not None and self.psum + prio < self.need[d]

    def bound(self) -> int:
        """The fewest breaks still to come: half the half-edges no later join can match."""
        lost = sum(max(f - h, (f + h) % 2) for f, h in zip(self.open[1:], self.pool[1:]))
        return (lost + 1) // 2

    def move(self, d: int, c: Cand, sign: int) -> None:
        """Place (sign 1) or take back (-1) candidate ``c`` on depth ``d`` in the tileability counts."""
        cell = self.lay.cells[d]
        for k, nb in enumerate((cell[9], cell[10], cell[0], cell[1])):     # N, E, S, W
            if nb < 0:
                continue
            mine = c[2 + k]
            if mine:
                self.pool[mine] -= sign
            if nb < d:
                theirs = self.board[nb][2 + (k + 2) % 4]
                if theirs:
                    self.open[theirs] -= sign
            elif mine:
                self.open[mine] += sign

    def cut(self, d: int, c: Cand, breaks: int) -> bool:
        """With ``tile``: place ``c`` in the counts; True (and taken back) if the bound cuts it."""
        if not self.tile:
            return False
        self.move(d, c, 1)
        if breaks + self.bound() > self.cap:
            self.move(d, c, -1)
            return True
        return False

    def tally(self, row: int, d: int) -> None:
        """One more at depth ``d`` in row ``row`` of ``hist`` (edgescore.HIST_ROWS)."""
        if self.hist is not None:
            self.hist[row * (len(self.lay.order) + 1) + d] += 1

    def count(self, d: int) -> None:
        """A node placed at depth ``d``: a subtree begins at ``sub_depth``; below it, its budget may run out."""
        if self.sub_limit <= 0:
            return
        if d == self.sub_depth:
            self.sub_start = self.nodes
        elif d > self.sub_depth and self.nodes - self.sub_start >= self.sub_limit:
            self.abandon = True

    def allowed(self, d: int) -> int:
        """The most breaks a partial board may have after depth ``d``."""
        return max(0, self.cap - self.held[d])

    def fill(self, d: int, breaks: int) -> None:
        """Try every candidate on square ``d`` that the schedule allows, with ``breaks`` so far."""
        lay = self.lay
        if self.abandon:
            return
        if d == len(lay.order):
            if breaks <= self.cap:
                if self.on_board(breaks, self.nodes, [(c[0], c[1]) for c in self.board]):
                    raise _Stop("limit")
                self.cap = breaks - 1
                self.last = self.nodes
                if self.cap < 0:
                    raise _Stop("done")      # every join matches: nothing better exists
            return
        south, west, exact, wonly, sonly, need_n, need_e, pinned, pinned_breaks = lay.cells[d][:9]
        phases = lay.cells[d][11]
        self.tally(2, d)
        if self.allowed(d) - breaks >= 1:
            self.tally(3, d)
        if pinned >= 0:
            i = lay.spans[pinned][0]
            c = lay.cands[i]
            if (breaks + pinned_breaks <= self.allowed(d) and not self.short(d, lay.prio[i])
                    and not self.cut(d, c, breaks + pinned_breaks)):
                self.board[d] = c
                self.nodes += 1
                self.tally(0, d)
                if pinned_breaks:
                    self.tally(1, d)
                self.count(d)
                self.psum += lay.prio[i]
                self.fill(d + 1, breaks + pinned_breaks)
                if self.abandon and d == self.sub_depth:
                    self.abandon = False
                self.psum -= lay.prio[i]
                if self.tile:
                    self.move(d, c, -1)
            return
        s = self.board[south][2] if south >= 0 else 0      # the south neighbour's N colour
        w = self.board[west][3] if west >= 0 else 0        # the west neighbour's E colour
        avail = self.allowed(d) - breaks
        if avail < 0:
            return
        runs = (exact + s * lay.colours + w, wonly + w, sonly + s, sonly + lay.colours)
        for phase, run in enumerate(runs):
            if phase and not phases >> phase & 1:
                continue                            # a break this square may not take
            if phase and avail < (2 if phase == 3 else 1):
                return
            first, end = lay.spans[run]
            for i in range(first, end):
                c = lay.cands[i]
                if self.used[c[0]] or self.short(d, lay.prio[i]) or _tried(phase, c, s, w):
                    continue
                pen = (0, 1, 1, 2)[phase] + (need_n >= 0 and c[2] != need_n) + (need_e >= 0 and c[3] != need_e)
                if pen > avail or self.cut(d, c, breaks + pen):
                    continue
                self.board[d] = c
                self.used[c[0]] = True
                self.psum += lay.prio[i]
                self.nodes += 1
                self.tally(0, d)
                if pen:
                    self.tally(1, d)
                if self.node_limit and self.nodes >= self.node_limit:
                    raise _Stop("nodes")
                if self.patience and self.nodes - self.last >= self.patience:
                    raise _Stop("nodes")
                self.count(d)
                self.fill(d + 1, breaks + pen)
                if self.tile:
                    self.move(d, c, -1)
                self.psum -= lay.prio[i]
                self.used[c[0]] = False
                if self.abandon:                    # a subtree's budget ran out
                    if d > self.sub_depth:
                        return
                    self.abandon = False
                avail = self.allowed(d) - breaks    # a board found below lowers the cap
                if avail < 0:
                    return


def _tried(phase: int, c: Cand, s: int, w: int) -> bool:
    """True if an earlier phase of the same square already tried ``c``."""
    south_ok, west_ok = c[4] == s, c[5] == w
    return (phase == 1 and south_ok) or (phase == 2 and west_ok) or (phase == 3 and (south_ok or west_ok))


def search(lay: Layout, held: list[int], cap: int, on_board: OnBoard, node_limit: int = 0,
           patience: int = 0, tile: bool = False, need: list[int] | None = None,
           sub_depth: int = 0, sub_limit: int = 0, hist: list[int] | None = None) -> Outcome:
    """:func:`satiling.engines.edgescore.search` without the clock."""
    run = _Search(lay, held, cap, on_board, node_limit, patience, tile, need, sub_depth, sub_limit, hist)
    try:
        run.fill(0, 0)
    except _Stop as stop:
        return Outcome(stop.status, run.nodes, run.cap)
    return Outcome("done", run.nodes, run.cap)
