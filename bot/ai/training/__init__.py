"""Training the learned evaluation (learned.py): self-play data (selfplay.py) and the fit
(fit.py). Run from a checkout; the shipped player only reads the weight file they write."""
