"""Hand-checked boards shared by the scoring tests. No card repeats within one pairing used."""

from bot.engine.board import Board

# A: QQ top (7), 99-55 middle (0), seven-high heart flush bottom (4): 11 in royalties.
A = Board.parse("Qh Qd 2c", "5s 5d 9c 9h Kd", "2h 3h 4h 5h 7h")
# B: ace-high top, TT-33 middle, aces full of sevens bottom (6).
B = Board.parse("Ah Kc 2s", "Ts Td Jc 3s 3c", "As Ad Ac 7d 7c")
# X, Y, W: no royalties. X: K-Q-2 top, AA-8-6-5 middle, trip nines bottom.
X = Board.parse("Kh Qd 2c", "As Ah 5c 6d 8s", "9h 9d 9c 3h 4s")
Y = Board.parse("Jh Td 3c", "Qs Qh 5d 7c 9s", "8h 8d 8c 4h 6s")  # loses every line to X
W = Board.parse("Ks Qc 2d", "Ad Ac 3d 4d 7s", "7h 7d 7c 5s 2s")  # ties X's top, loses the rest
# F fouls (QQ top over JJ middle), against X.
F = Board.parse("Qs Qh 4c", "Js Jh 5d 6c 8d", "Tc Td Th 2h 2d")
# G fouls (KK top over a JJ middle) though it would pay 8 + 6; H fouls (AA over KK).
G = Board.parse("Ks Kh 4c", "Js Jh 6d 8c 9d", "Tc Td Th 2s 2d")
H = Board.parse("Ac Ad 5h", "Kc Kd 3s 4s 7c", "Qc Qd Qh 6s 6h")
