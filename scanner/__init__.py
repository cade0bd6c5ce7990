"""Vision and the command line: grid detection, colour sampling and naming, assembly, CLI."""
