"""``python -m bordspel`` runs the command line."""

import sys

from bordspel.cli import main

sys.exit(main())
