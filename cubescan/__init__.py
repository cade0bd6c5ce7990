"""cubescan: scan a twisty cube, tell whether it can be solved, explain why not, solve it."""
