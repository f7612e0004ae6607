"""An IQ-Link challenge from code: five pieces placed, seven to go, one linked graph.

    python examples/iqlink.py
"""
import satiling

challenge = satiling.IQLink(["TFI", "OGK", "MIK", "JKE", "PLE"], name="challenge")
solution = challenge.solve()
print(solution)                     # the board as text
print(challenge.verify(solution))
