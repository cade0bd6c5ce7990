"""`python -m cubescan` runs the `cubescan` command line."""

from cubescan.scanner.cli import main

main()
