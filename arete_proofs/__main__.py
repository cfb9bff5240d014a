"""``python -m arete_proofs`` is the ``arete`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
