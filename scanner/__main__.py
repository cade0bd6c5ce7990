"""`python -m scanner` runs the `cubescan` command line."""

from scanner.cli import main

main()
