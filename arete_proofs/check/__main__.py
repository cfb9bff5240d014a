"""``python -m arete_proofs.check PATH...``: the same as ``arete check``."""

import sys

from ._files import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m arete_proofs.check"))
