"""``python -m ibm1013``: the same command line as the ``ibm1013`` script (:mod:`ibm1013.cli.start`)."""

import sys

from ibm1013.cli.start import main

sys.exit(main())
