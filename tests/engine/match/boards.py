"""Hand-checked boards for the scenarios (R2-R4, R8). Boards used together share no card."""

from tests.engine.match.helpers import board

# Plain boards: nobody fouls, nobody earns Fantasyland, no royalties.
# P1: K-high top < pair of aces middle < trip nines bottom.
P1 = board("Kh Jd 2c", "As Ah 5c 6d 8s", "9h 9d 9c 3h 4s")
# P2: J-high top < pair of queens middle < trip eights bottom.
P2 = board("Jh Td 3c", "Qs Qh 5d 7c 9s", "8h 8d 8c 4h 6s")
# P3: K-high top < pair of aces middle < sevens and sixes bottom.
P3 = board("Ks Qc 2d", "Ad Ac 3d 4d 7s", "7h 7d 6c 6h 2s")

# Q: QQ on top (7), jacks and fives middle, trip eights bottom: not fouled, earns FL (R8: 14
# standard, 14 progressive/ultimate, 13 tournament). Shares no card with P1 or P3.
Q = board("Qs Qh 3c", "Td Jh Jc 5d 5s", "8h 8d 8c 4h 6s")
# K: KK on top (8), aces middle, sevens full of sixes bottom (6): earns FL (15 progressive).
# Shares no card with Q or P1.
K = board("Kc Kd 2h", "Ad Ac 3d 4d 9s", "7h 7d 7c 6c 6h")
# T: trip tens on top (18), king-high straight middle (4), queen-high heart flush bottom (4):
# earns FL with trips (17 progressive/ultimate, 16 tournament). Shares no card with P1.
T = board("Ts Tc Th", "Kd Qc Jc Td 9s", "2h 4h 6h 7h Qh")
# F: fouled (QQ top over a pair of jacks middle): no FL whatever its top.
F = board("Qs Qh 4c", "Js Jh 5d 6c 8d", "Tc Td Th 2h 2d")
