"""The plumbing of one bot process: worker processes for CPU work (workers.py) and writes done
in batches, a group commit (batches.py). Neither imports any other part of the project."""
