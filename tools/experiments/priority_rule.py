"""Experiment: does a generated board gain from the priority colours and the schedule of Eternity II?

Runs ``--maximize-matches backtrack`` (one search process, CPU seconds) on a generated square
board (the generator's default colours: 5 frame + 17 inner on 16x16) with one of three tunings and
prints one JSON line: the final score, the colours, the last improvements (score, wall s).

    plain     the scoring search's default before the rule (no priority colours, the schedule
              from depth 200/256 to 250/256 evenly: ``maximize.Tuning(double=False)``)
    schedule  the default schedule (200/256 to 255/256, bent 1.2) without priority colours
    default   ``maximize.default_tuning``: that schedule and the colours of
              ``edgescore.priority_colours``, their need curve scaled to the board

Measured (seeds 1-3, 60 CPU-s on 16x16): plain 455 x 3, schedule 457 x 3, default 461 x 3;
seeds 1-3, 60 CPU-s: 18x18 plain 558, 564, 551, default 583, 586, 587; 20x20 plain no board,
690, 689, default 713, 721, 721 (of 760); 10x10, 12x12 and 14x14 (seeds 1-2, 30-40 CPU-s): even.
Those ran with restarts of 2^25 nodes throughout.  The default with growing restarts, 60 CPU-s,
``slack=0`` / ``1`` / ``2`` (2 is the default): 16x16 seeds 1-3 461, 460, 460 / 462, 461, 460 / 462,
462, 461; 18x18 seeds 1-6 580, 583, 585, 578, 581, 581 / 579, 583, 581, 573, 582, 583 / 581, 584,
580, 578, 581, 582; 20x20 seeds 1-3, slack 0 / 2: 704, 714, 718 / 706, 719, 717; slack 2 with
``restart_max=33554432`` (2^25 throughout): 719, 719, 721.  ``stall=1`` (the default since): 16x16
463, 462, 462; 18x18 585, 585, 585, 585, 584, 585; 20x20 720, 722, 719.

    python tools/experiments/priority_rule.py size=16 seed=1 secs=60 tuning=default [slack=1]

``slack=N`` sets :attr:`maximize.Tuning.slack` on the chosen tuning, ``restart_max=N`` its longest
restart in nodes, ``stall=1`` its patience grown by stalled restarts only, ``measure=0`` the
Markov chain on its model's rates alone (default, -1: the tuning's own).
"""
from __future__ import annotations

import json
import sys

#: settings of the chosen tuning that a ``key=N`` replaces (-1: the tuning's own)
OVERRIDES = ("slack", "restart_max", "stall", "measure")


def main() -> None:
    from satiling.apps import maximize
    from satiling.families.edgematch.generate import generate
    o = dict(size=16, seed=1, secs=60.0, tuning="default", **{k: -1 for k in OVERRIDES})
    for arg in sys.argv[1:]:
        key, _, value = arg.partition("=")
        if key not in o:
            raise SystemExit(f"unknown setting {key!r} (choose from {', '.join(o)})")
        o[key] = value if isinstance(o[key], str) else type(o[key])(float(value))
    puzzle = generate(o["size"], o["size"], seed=o["seed"]).puzzle()
    tunings = {"plain": maximize.Tuning(double=False),
               "schedule": maximize.DEFAULT,
               "default": maximize.default_tuning(puzzle)}
    if o["tuning"] not in tunings:
        raise SystemExit(f"unknown tuning {o['tuning']!r} (choose from {', '.join(tunings)})")
    tuning = tunings[o["tuning"]]
    from dataclasses import replace
    overrides = {k: type(getattr(tuning, k))(o[k]) for k in OVERRIDES if o[k] >= 0}
    tuning = replace(tuning, **overrides)
    steps: list = []
    result = maximize.maximize_matches(puzzle, time_limit=o["secs"], engine="backtrack", workers=1,
                                       cpu_time=True, tuning=tuning, seed=o["seed"],
                                       on_improve=lambda imp: steps.append((imp.score, round(imp.seconds, 1))))
    print(json.dumps({"size": o["size"], "seed": o["seed"], "tuning": o["tuning"], "slack": tuning.slack,
                      "restart_max": tuning.restart_max, "stall": tuning.stall, "measure": tuning.measure,
                      "score": result.score,
                      "joins": result.joins, "priority": tuning.priority, "last": steps[-3:]}))


if __name__ == "__main__":
    main()
