"""Imported once by the worker processes' fork server (bot/app.py WORKER_MODULES): it draws a
table image and a private image, so that every worker forked from the server starts with
what a first image builds and keeps (the fixed palette, the panels, fonts and card faces:
about 0.2 s of CPU, measured) already built, shared copy-on-write. Without it each worker pays
that at its first image, which with a worker per core is as many times, in the middle of the
first burst of deals.
"""

import logging

import rendering
from rendering import samples

log = logging.getLogger(__name__)


def warm() -> None:
    """Draw the images a click makes once, from a seeded sample hand."""
    match = samples.mid_hand(3)
    seat = match.pending()[0]
    rendering.png("table", match.public_view())
    rendering.png("private", match.view_for(seat), samples.choice(match, seat))


try:
    warm()
except Exception:  # the fork server must start regardless: workers then warm at first use
    log.exception("drawing the workers' first images in advance failed")
