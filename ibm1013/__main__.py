"""``python -m ibm1013``: the same command line as the ``ibm1013`` script."""

import sys

from ibm1013.cli.main import main

sys.exit(main())
