"""`python -m bot.cli`: the same as `ofc`."""

import sys

from bot.cli.ofc import main

sys.exit(main())
