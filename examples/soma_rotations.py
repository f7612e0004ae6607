"""Counting conventions: Piet Hein's Soma cube up to the cube's 48 motions, its 24 rotations
(mirror images counted apart), or every solution.

    python examples/soma_rotations.py
"""
import satiling

soma = satiling.load("soma-cube")
for symmetry in ("full", "rotations", "none"):
    print(f"{symmetry:>9}: {soma.count(symmetry=symmetry)}")
