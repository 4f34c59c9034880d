"""``python -m rulelang``: the same command line as ``rulelang``."""

from rulelang.cli import main

main()
